/**
 * The OAuth example in local-IdP mode, as a visitor clicks through it: the protected page sends
 * them to the sign-in page, its "Local IdP" button to the local OpenID provider, whose login page
 * takes demo/demo (a wrong password is refused there), and the callback signs them in with a
 * session that names the provider. Cancelling at the IdP ends on the sign-in page with an error.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Express } from "express"
import { jest } from "@jest/globals"
import supertest from "supertest"

// oidc-provider prints development warnings, Gatehouse logs the cancelled sign-in: keep the output readable.
jest.spyOn(console, "warn").mockImplementation(() => undefined)
jest.spyOn(console, "info").mockImplementation(() => undefined)
jest.spyOn(console, "error").mockImplementation(() => undefined)

// The app's port is chosen first, so the example registers its redirect URI at the IdP.
const site: { app?: Express } = {}
const server: Server = createServer((req, res) => site.app!(req, res))
await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
process.env.PORT = String((server.address() as AddressInfo).port)
process.env.LOCAL_IDP = "1"
process.env.LOCAL_IDP_PORT = "0"
for (const name of ["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET", "AUTH_GOOGLE_ID", "AUTH_GOOGLE_SECRET", "AUTH_URL"]) delete process.env[name]

const example = (await import("../../examples/oauth/index.js")) as unknown as { app: Express; localIdp: { issuer: string; close(): Promise<void> } }
site.app = example.app
const idp = example.localIdp

afterAll(async () => {
  await new Promise<void>((done) => {
    server.closeAllConnections()
    server.close(() => done())
  })
  await idp.close()
  jest.restoreAllMocks()
})

/** A browser at the IdP: its own cookie jar, following redirects by hand. */
class IdpBrowser {
  private readonly jar = new Map<string, string>()

  async request(url: URL, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {}
    if (this.jar.size) headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ")
    let body: string | undefined
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      body = new URLSearchParams(init.form).toString()
    }
    const response = await fetch(url, { method: init.method ?? "GET", headers, body, redirect: "manual" })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";")
      const separator = pair.indexOf("=")
      const value = pair.slice(separator + 1)
      if (value && !/expires=Thu, 01 Jan 1970/i.test(line)) this.jar.set(pair.slice(0, separator), value)
      else this.jar.delete(pair.slice(0, separator))
    }
    return response
  }

  /**
   * Follows redirects from `url` until the IdP sends the browser back to the app (returned), or
   * shows a page (returned as `{ page, url }`).
   */
  async follow(url: URL): Promise<{ back: URL } | { page: Response; html: string; url: URL }> {
    let next = url
    for (let hop = 0; hop < 10; hop++) {
      if (next.origin === origin) return { back: next }
      const response = await this.request(next)
      const location = response.headers.get("location")
      if (!location) return { page: response, html: await response.text(), url: next }
      next = new URL(location, next)
    }
    throw new Error("Too many redirects at the IdP")
  }
}

/** Sign-in page → the local IdP's button → the authorization URL. */
async function startSignIn(agent: ReturnType<typeof supertest.agent>): Promise<URL> {
  const refused = await agent.get("/profile").set("Accept", "text/html").expect(302)
  const signin = new URL(refused.headers.location)
  expect(signin.pathname).toBe("/auth/signin")
  const page = await agent.get(signin.pathname + signin.search).expect(200)
  expect(page.text).toContain("Local IdP (demo)")
  const form = /<form[^>]*action="([^"]*\/auth\/signin\/local)"[^>]*>([\s\S]*?)<\/form>/.exec(page.text)
  expect(form).not.toBeNull()
  const fields = Object.fromEntries([...form![2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]))
  expect(fields.csrfToken).toBeDefined()
  const started = await agent.post(new URL(form![1]!).pathname).type("form").send(fields).expect(302)
  const authorization = new URL(started.headers.location)
  expect(authorization.origin).toBe(idp.issuer)
  expect(authorization.searchParams.get("code_challenge_method")).toBe("S256")
  expect(authorization.searchParams.get("redirect_uri")).toBe(`${origin}/auth/callback/local`)
  return authorization
}

/** At the IdP's login page: posts the form with `login` and `password`. */
async function logIn(browser: IdpBrowser, at: { page: Response; html: string; url: URL }, login: string, password: string) {
  expect(at.page.status).toBe(200)
  const html = at.html
  expect(html).toContain("Local IdP")
  const action = /<form method="post" action="([^"]+)">/.exec(html)![1]!
  const response = await browser.request(new URL(action, at.url), { method: "POST", form: { login, password } })
  return response
}

describe("examples/oauth (local IdP)", () => {
  test("the home page lists the local IdP and its demo account", async () => {
    const home = await supertest(server).get("/").expect(200)
    expect(home.text).toContain("Local IdP (demo)")
    expect(home.text).toContain("demo</b> / <b>demo")
    const providers = await supertest(server).get("/auth/providers").expect(200)
    expect(providers.body.map((provider: { id: string }) => provider.id)).toEqual(["local"])
  })

  test("a full OpenID Connect sign-in with demo/demo at the local IdP", async () => {
    const agent = supertest.agent(server)
    const authorization = await startSignIn(agent)
    const browser = new IdpBrowser()
    const login = await browser.follow(authorization)
    if ("back" in login) throw new Error("the IdP did not ask for a login")

    // A wrong password stays at the IdP.
    const refused = await logIn(browser, login, "demo", "wrong")
    expect(refused.status).toBe(401)
    expect(await refused.text()).toContain("Wrong username or password.")

    const accepted = await logIn(browser, login, "demo", "demo")
    expect(accepted.status).toBe(303)
    const returned = await browser.follow(new URL(accepted.headers.get("location")!, login.url))
    if (!("back" in returned)) throw new Error(`the IdP answered ${returned.page.status} at ${returned.url.pathname}`)
    expect(returned.back.pathname).toBe("/auth/callback/local")
    expect(returned.back.searchParams.get("code")).toBeTruthy()
    expect(returned.back.searchParams.get("iss")).toBe(idp.issuer)

    const callback = await agent.get(returned.back.pathname + returned.back.search).expect(302)
    expect(new URL(callback.headers.location).href).toBe(`${origin}/profile`)
    expect(String(callback.headers["set-cookie"])).toContain("authjs.session-token=")

    const profile = await agent.get("/profile").set("Accept", "application/json").expect(200)
    expect(profile.body).toMatchObject({ provider: "local", user: { name: "Demo User", email: "demo@example.com" } })
    const home = await agent.get("/").expect(200)
    expect(home.text).toContain("Signed in with <b>local</b> as demo@example.com")

    // The code works once: replaying the callback signs no one in.
    const replay = await supertest(server).get(returned.back.pathname + returned.back.search).expect(302)
    expect(replay.headers.location).toContain("error=")
    expect(String(replay.headers["set-cookie"] ?? "")).not.toMatch(/authjs\.session-token=[^;]/)
  })

  test("cancelling at the IdP ends on the sign-in page with an error, signed out", async () => {
    const agent = supertest.agent(server)
    const authorization = await startSignIn(agent)
    const browser = new IdpBrowser()
    const login = await browser.follow(authorization)
    if ("back" in login) throw new Error("the IdP did not ask for a login")
    const abort = /href="([^"]*\/abort)"/.exec(login.html)![1]!
    const returned = await browser.follow(new URL(abort, login.url))
    if (!("back" in returned)) throw new Error("the IdP did not send the browser back")
    expect(returned.back.searchParams.get("error")).toBe("access_denied")
    const callback = await agent.get(returned.back.pathname + returned.back.search).expect(302)
    const url = new URL(callback.headers.location)
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("error")).toBe("OAuthCallbackError")
    await agent.get("/profile").set("Accept", "application/json").expect(401)
  })
})
