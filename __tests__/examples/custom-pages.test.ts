/**
 * The custom-pages example, as a visitor uses it: the protected page sends them to the app's own
 * sign-in page (its EJS markup, not Gatehouse's), empty fields and a wrong password are shown on
 * that page, the right password signs in and lands on the page they asked for, sign-out ends it.
 * The app's own account page (`pages.account`), built with the server helpers: its sign-in methods
 * (disconnecting one, never the last), its devices (signing another out, or all others), deleting
 * the account (confirmation box, then everything of the user's gone), cross-site posts refused.
 */
import type { Server } from "node:http"
import type { Express } from "express"
import supertest from "supertest"
import { jest } from "@jest/globals"

// Gatehouse logs the refused sign-ins this test makes on purpose.
jest.spyOn(console, "error").mockImplementation(() => undefined)

interface ExampleAdapter {
  getUserByEmail(email: string): Promise<{ id: string } | null>
  linkAccount(account: { type: string; provider: string; providerAccountId: string; userId: string }): Promise<unknown>
  listAccountsByUserId(userId: string): Promise<Array<{ provider: string }>>
}
const { app, adapter } = (await import("../../examples/custom-pages/index.js")) as unknown as { app: Express; adapter: ExampleAdapter }

let server: Server
let origin: string
beforeAll(async () => {
  server = app.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))
const agent = () => supertest.agent(server)

function hidden(html: string, name: string): string | undefined {
  return new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1]?.replace(/&#34;|&quot;/g, '"').replace(/&amp;/g, "&")
}

describe("examples/custom-pages", () => {
  test("requireAuth sends a signed-out visitor to the app's own sign-in page", async () => {
    const browser = agent()
    const refused = await browser.get("/account").set("Accept", "text/html").expect(302)
    const url = new URL(refused.headers.location, origin)
    expect(url.pathname).toBe("/signin")
    expect(new URL(url.searchParams.get("callbackUrl")!).pathname).toBe("/account")

    const page = await browser.get(url.pathname + url.search).expect(200)
    expect(page.headers["content-type"]).toMatch(/text\/html/)
    expect(page.text).toContain('<section class="acme-card" id="acme-signin">')
    expect(page.text).toContain("<h1>Sign in to Acme</h1>")
    expect(page.text).toContain('<form method="post" action="/signin" novalidate>')
    expect(hidden(page.text, "providerId")).toBe("credentials")
    expect(hidden(page.text, "redirectTo")).toBe("/account")
    expect(page.text).not.toContain(`id="form-errors"`)
    // Gatehouse's built-in page now redirects here too.
    const builtIn = await browser.get("/auth/signin").expect(302)
    expect(new URL(builtIn.headers.location, origin).pathname).toBe("/signin")
  })

  test("empty fields are shown next to each field", async () => {
    const response = await agent().post("/signin").type("form").send({ providerId: "credentials", redirectTo: "/account", username: "", password: "" }).expect(400)
    expect(response.text).toContain('<p class="field-error" id="username-error">Enter your username.</p>')
    expect(response.text).toContain('<p class="field-error" id="password-error">Enter your password.</p>')
    expect(response.text).toContain('aria-invalid="true"')
  })

  test("signInAction's own field errors (an unknown provider) are shown", async () => {
    const response = await agent().post("/signin").type("form").send({ providerId: "nope", username: "demo", password: "demo" }).expect(400)
    expect(response.text).toContain("providerId: No provider has this id")
    expect(response.headers["set-cookie"]).toBeUndefined()
  })

  test("a wrong password shows the form error on the same page and signs no one in", async () => {
    const browser = agent()
    const response = await browser.post("/signin").type("form").send({ providerId: "credentials", redirectTo: "/account", username: "demo", password: "wrong" }).expect(401)
    expect(response.text).toContain('<div class="form-error" role="alert" id="form-errors">')
    expect(response.text).toContain("Wrong username or password.")
    expect(response.text).toContain('value="demo"')
    expect(response.text).toContain('id="acme-signin"')
    expect(String(response.headers["set-cookie"] ?? "")).not.toContain("authjs.session-token=e")
    const unknown = await browser.post("/signin").type("form").send({ providerId: "credentials", username: "nobody", password: "wrong" }).expect(401)
    expect(unknown.text).toContain("Wrong username or password.")
    await browser.get("/account").set("Accept", "text/html").expect(302)
  })

  test("an error Gatehouse puts in the URL is shown, unknown ones generically", async () => {
    const known = await agent().get("/signin?error=CredentialsSignin&code=credentials").expect(200)
    expect(known.text).toContain("Wrong username or password.")
    const unknown = await agent().get("/signin?error=%3Cscript%3E").expect(200)
    expect(unknown.text).toContain("Something went wrong. Please try again.")
    expect(unknown.text).not.toContain("<script>")
  })

  test("the right password signs in, lands on the page asked for, and sign-out ends the session", async () => {
    const browser = agent()
    const signedIn = await browser.post("/signin").type("form").send({ providerId: "credentials", redirectTo: "/account", username: "demo", password: "demo" }).expect(302)
    expect(new URL(signedIn.headers.location, origin).pathname).toBe("/account")
    const account = await browser.get("/account").set("Accept", "text/html").expect(200)
    expect(account.text).toContain('<strong id="account-name">Demo User</strong>')
    const home = await browser.get("/").expect(200)
    expect(home.text).toContain("Welcome back, Demo User")
    // Signed in, the sign-in page sends the visitor on.
    const again = await browser.get("/signin?callbackUrl=%2Faccount").expect(302)
    expect(again.headers.location).toBe("/account")

    const signedOut = await browser.post("/signout").type("form").send({ redirectTo: "/" }).expect(302)
    expect(new URL(signedOut.headers.location, origin).pathname).toBe("/")
    await browser.get("/account").set("Accept", "text/html").expect(302)
  })

  test("another site's callbackUrl never becomes the redirect", async () => {
    const page = await agent().get("/signin?callbackUrl=https%3A%2F%2Fevil.example%2Fx").expect(200)
    expect(hidden(page.text, "redirectTo")).toBe("/")
    const browser = agent()
    const signedIn = await browser.post("/signin").type("form").send({ providerId: "credentials", redirectTo: "https://evil.example/x", username: "demo", password: "demo" }).expect(302)
    expect(new URL(signedIn.headers.location, origin).origin).toBe(origin)
  })

  test("a cross-site post to the app's sign-in route is refused", async () => {
    const response = await agent().post("/signin").set("Origin", "https://evil.example").type("form").send({ providerId: "credentials", username: "demo", password: "demo" }).expect(400)
    expect(response.text).toContain("The form expired")
    expect(response.headers["set-cookie"]).toBeUndefined()
  })

  test("/login redirects to the custom page through signIn()", async () => {
    const response = await agent().get("/login").expect(302)
    const url = new URL(response.headers.location, origin)
    expect(url.pathname).toBe("/signin")
    expect(new URL(url.searchParams.get("callbackUrl")!, origin).pathname).toBe("/account")
  })

  describe("the app's own account page (pages.account) and the server helpers", () => {
    const signedIn = async () => {
      const browser = agent()
      await browser.post("/signin").type("form").send({ providerId: "credentials", redirectTo: "/account", username: "demo", password: "demo" }).expect(302)
      return browser
    }
    const page = async (browser: ReturnType<typeof agent>, query = "") => (await browser.get(`/account${query}`).set("Accept", "text/html").expect(200)).text
    const devices = (html: string) => html.match(/<li class="device">/g)?.length ?? 0

    test("Gatehouse's /auth/account sends the browser to the app's page, which lists the sign-in methods and this device", async () => {
      const browser = await signedIn()
      const builtIn = await browser.get("/auth/account").expect(302)
      expect(new URL(builtIn.headers.location, origin).pathname).toBe("/account")
      const html = await page(browser)
      expect(html).toContain('<section class="acme-card" id="acme-account">')
      expect(html).toContain("Disconnect credentials")
      expect(html).toContain("(this device)")
      expect(html).toContain("Delete my account")
    })

    test("unlinkAccount: the last way in is refused and explained; a second one is disconnected", async () => {
      const browser = await signedIn()
      const last = await browser.post("/account/unlink").type("form").send({ provider: "credentials" }).expect(302)
      expect(last.headers.location).toBe("/account?error=LastSignInMethod")
      expect(await page(browser, "?error=LastSignInMethod")).toContain("That is your only way to sign in")
      const user = (await adapter.getUserByEmail("demo@example.com"))!
      await adapter.linkAccount({ type: "oauth", provider: "github", providerAccountId: "demo-at-github", userId: user.id })
      expect(await page(browser)).toContain("Disconnect github")
      const done = await browser.post("/account/unlink").type("form").send({ provider: "github" }).expect(302)
      expect(done.headers.location).toBe("/account?done=unlink")
      expect((await adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).toEqual(["credentials"])
      const other = await browser.post("/account/unlink").type("form").send({ provider: "github" }).expect(302)
      expect(other.headers.location).toBe("/account?error=SignInMethodNotFound")
    })

    test("revokeSession and revokeOtherSessions: the other browsers read as signed out, this one stays", async () => {
      const [first, second, third] = [await signedIn(), await signedIn(), await signedIn()]
      const html = await page(first)
      expect(devices(html)).toBeGreaterThanOrEqual(3)
      const id = /name="id" value="([^"]+)"/.exec(html)![1]!
      const revoked = await first.post("/account/devices/revoke").type("form").send({ id }).expect(302)
      expect(revoked.headers.location).toBe("/account?done=revoke")
      const again = await first.post("/account/devices/revoke").type("form").send({ id }).expect(302)
      expect(again.headers.location).toBe("/account?error=SessionNotFound")
      expect(await page(first, "?error=SessionNotFound")).toContain("That device is not signed in to your account.")
      await first.post("/account/devices/revoke-others").type("form").send({}).expect(302)
      for (const other of [second, third]) await other.get("/account").set("Accept", "text/html").expect(302)
      expect(devices(await page(first))).toBe(1)
    })

    test("deleteAccount: without the box nothing happens; with it the user, their methods and sessions are gone and the browser is signed out", async () => {
      const browser = await signedIn()
      const elsewhere = await signedIn()
      const unticked = await browser.post("/account/delete").type("form").send({}).expect(302)
      expect(unticked.headers.location).toBe("/account?error=Unconfirmed")
      expect(await adapter.getUserByEmail("demo@example.com")).not.toBeNull()
      const user = (await adapter.getUserByEmail("demo@example.com"))!
      const deleted = await browser.post("/account/delete").type("form").send({ confirm: "yes" }).expect(302)
      expect(deleted.headers.location).toBe("/?deleted=1")
      expect(await adapter.getUserByEmail("demo@example.com")).toBeNull()
      expect(await adapter.listAccountsByUserId(user.id)).toEqual([])
      await browser.get("/account").set("Accept", "text/html").expect(302)
      await elsewhere.get("/account").set("Accept", "text/html").expect(302)
      // The demo user signs in again (a new user record): the example keeps working.
      await (await signedIn()).get("/account").set("Accept", "text/html").expect(200)
    })

    test("deleteAccount after a sign-in older than 10 minutes: the sign-in page first, with its message; nothing deleted", async () => {
      const browser = await signedIn()
      const later = Date.now() + 11 * 60 * 1000
      jest.spyOn(Date, "now").mockReturnValue(later)
      try {
        const refused = await browser.post("/account/delete").type("form").send({ confirm: "yes" }).expect(302)
        expect(refused.headers.location).toBe("/signin?callbackUrl=%2Faccount&error=RecentSignInRequired")
      } finally {
        jest.mocked(Date.now).mockRestore()
      }
      expect(await adapter.getUserByEmail("demo@example.com")).not.toBeNull()
      // Signed in, the sign-in page passes the visitor on; signed out, it shows why they are there.
      const fresh = await agent().get("/signin?callbackUrl=%2Faccount&error=RecentSignInRequired").expect(200)
      expect(fresh.text).toContain("For your security, sign in again, then delete your account.")
    })

    test("a cross-site post to an account action is refused and changes nothing", async () => {
      const browser = await signedIn()
      const response = await browser.post("/account/delete").set("Origin", "https://evil.example").type("form").send({ confirm: "yes" })
      expect(response.status).toBe(302)
      expect(response.headers.location).toBe("/account?error=MissingCSRF")
      expect(await page(browser, "?error=MissingCSRF")).toContain("The form expired. Please try again.")
      expect(await adapter.getUserByEmail("demo@example.com")).not.toBeNull()
    })
  })
})
