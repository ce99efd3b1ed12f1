/**
 * The built-in pages as served by the router (supertest, no browser): the headers the README
 * promises, a policy whose style hash matches the page's <style>, the error page's statuses, and
 * `error`/`callbackUrl` query values that are never echoed as markup.
 */
import { createHash } from "node:crypto"
import type { Server } from "node:http"
import { makeApp, request, testConfig } from "../../helpers/app.js"
import { DEFAULT_ERROR_PAGE, DEFAULT_SIGNIN_ERROR, ERROR_PAGES, SIGNIN_ERRORS } from "../../../lib/core/error-messages.js"
import { pageCsp, themeStyle } from "../../../lib/pages/theme.js"
import type { Theme } from "../../../lib/types.js"
import { attr, byTag, expectNothingActive, parseHtml, textOf } from "./html.js"

const PAGES = ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"]
const PROBES = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "<%= 7*7 %>", "RawProbe4b1d"]

const THEME: Theme = { colorScheme: "dark", brandColor: "teal", buttonText: "black", logo: "/static/logo.svg" }
const app = makeApp(testConfig())
const themed = makeApp(testConfig({ theme: THEME }))

function styleSrc(policy: string): string {
  const directive = policy.split(";").map((part) => part.trim()).find((part) => part.startsWith("style-src "))
  return directive!.slice("style-src ".length)
}

describe("page headers", () => {
  test.each(PAGES)("%s: no-store, DENY framing, no referrer to other sites, nosniff, HTML in UTF-8", async (path) => {
    const response = await request(app).get(path).expect(200)
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(response.headers["cache-control"]).toBe("no-store")
    expect(response.headers["x-frame-options"]).toBe("DENY")
    // The README says no-referrer; same-origin would equally keep the URL from other sites (and
    // let the page's own forms carry a real Origin: see "posting the built-in forms" below).
    expect(["no-referrer", "same-origin"]).toContain(response.headers["referrer-policy"])
    expect(response.headers["x-content-type-options"]).toBe("nosniff")
  })

  test.each(PAGES.flatMap((path) => [[path, "default"], [path, "themed"]] as const))("%s (%s theme): the policy is pageCsp of the theme and allows exactly the page's <style>", async (path, which) => {
    const response = await request(which === "themed" ? themed : app).get(path).expect(200)
    const policy = response.headers["content-security-policy"] as string
    expect(policy).toBe(pageCsp(themeStyle(which === "themed" ? { ...THEME } : {})))
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).toContain("base-uri 'none'")
    expect(policy).not.toContain("unsafe-inline")
    const css = textOf(byTag(parseHtml(response.text), "style")[0]!)
    expect(styleSrc(policy)).toBe(`'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`)
  })

  test("the theme reaches the page: dark palette, brand colour, logo", async () => {
    const response = await request(themed).get("/auth/signin").expect(200)
    const parsed = parseHtml(response.text)
    const css = textOf(byTag(parsed, "style")[0]!)
    expect(css).toContain("--brand:teal")
    expect(css).toContain("--button-text:black")
    expect(css).toContain("--bg:#09090b")
    expect(attr(byTag(parsed, "meta").find((meta) => attr(meta, "name") === "color-scheme")!, "content")).toBe("dark")
    expect(byTag(parsed, "img").map((img) => attr(img, "src"))).toEqual(["/static/logo.svg"])
  })
})

describe("the error page over HTTP", () => {
  test.each([
    ["Configuration", 500],
    ["AccessDenied", 403],
    ["Verification", 403],
  ] as const)("error=%s answers %d with its heading", async (value, status) => {
    const response = await request(app).get(`/auth/error?error=${value}`).expect(status)
    expect(textOf(byTag(parseHtml(response.text), "h1")[0]!)).toBe(ERROR_PAGES[value]!.heading)
  })

  test.each(["", "?error=Nope", "?error=constructor", "?error=__proto__", "?error=toString", "?error=AccessDenied&error=AccessDenied"])("/auth/error%s answers 200 with the default page", async (query) => {
    const response = await request(app).get(`/auth/error${query}`).expect(200)
    expect(textOf(byTag(parseHtml(response.text), "h1")[0]!)).toBe(DEFAULT_ERROR_PAGE.heading)
  })

  test.each(PROBES)("error=%j is never echoed", async (probe) => {
    const response = await request(app).get(`/auth/error?error=${encodeURIComponent(probe)}`).expect(200)
    expect(response.text).not.toContain(probe)
    expect(response.text).not.toContain(encodeURIComponent(probe))
    expect(response.text).not.toContain("4b1d")
    expectNothingActive(parseHtml(response.text))
  })
})

describe("the sign-in page over HTTP", () => {
  test("error=CredentialsSignin shows its message in an alert", async () => {
    const response = await request(app).get("/auth/signin?error=CredentialsSignin&code=credentials").expect(200)
    const alerts = parseHtml(response.text).elements.filter((element) => attr(element, "role") === "alert")
    expect(alerts.map(textOf)).toEqual([SIGNIN_ERRORS.CredentialsSignin])
  })

  test.each(PROBES)("error=%j shows the default message and never the value", async (probe) => {
    const response = await request(app).get(`/auth/signin?error=${encodeURIComponent(probe)}`).expect(200)
    expect(response.text).not.toContain(probe)
    expect(response.text).not.toContain("4b1d")
    const parsed = parseHtml(response.text)
    expectNothingActive(parsed)
    expect(parsed.elements.filter((element) => attr(element, "role") === "alert").map(textOf)).toEqual([DEFAULT_SIGNIN_ERROR])
  })

  test("an error given twice reads as absent", async () => {
    const response = await request(app).get("/auth/signin?error=CredentialsSignin&error=MissingCSRF").expect(200)
    expect(parseHtml(response.text).elements.filter((element) => attr(element, "role") === "alert")).toHaveLength(0)
  })

  test.each(PROBES.map((probe) => `/${probe}`))("callbackUrl=%j stays an attribute value on this site", async (probe) => {
    const agent = request.agent(app)
    const response = await agent.get(`/auth/signin?callbackUrl=${encodeURIComponent(probe)}`).expect(200)
    const parsed = parseHtml(response.text)
    expectNothingActive(parsed)
    const callback = byTag(parsed, "input").find((input) => attr(input, "name") === "callbackUrl")!
    const url = new URL(attr(callback, "value")!)
    expect(url.protocol).toBe("http:")
    expect(url.hostname).toBe("127.0.0.1")
  })

  test("the form's CSRF token is the one GET /auth/csrf returns for the same browser", async () => {
    const agent = request.agent(app)
    const page = await agent.get("/auth/signin").expect(200)
    const token = attr(byTag(parseHtml(page.text), "input").find((input) => attr(input, "name") === "csrfToken")!, "value")
    const csrf = await agent.get("/auth/csrf").expect(200)
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    expect(csrf.body.csrfToken).toBe(token)
  })

  test("every visible input of the served page is labelled", async () => {
    const response = await request(app).get("/auth/signin").expect(200)
    const parsed = parseHtml(response.text)
    const visible = byTag(parsed, "input").filter((input) => attr(input, "type") !== "hidden")
    expect(visible.map((input) => attr(input, "name"))).toEqual(["username", "password"])
    for (const input of visible) {
      const labels = byTag(parsed, "label").filter((label) => attr(label, "for") === attr(input, "id"))
      expect(labels.map(textOf)).toEqual([input === visible[0] ? "Username" : "Password"])
    }
  })
})

describe("posting the built-in forms as a browser does", () => {
  // One listening server, so the origin (and port) in the page's form is the one posted to.
  let server: Server
  beforeAll(async () => {
    server = app.listen(0, "127.0.0.1")
    await new Promise((listening) => server.once("listening", listening))
  })
  afterAll(() => new Promise<void>((done) => server.close(() => done())))

  /**
   * The `Origin` a browser sends with a same-origin form POST from a page (Fetch standard,
   * "serializing a request origin"): `null` when the page's referrer policy is `no-referrer`,
   * the page's origin otherwise (for same-origin requests over the same scheme).
   */
  function browserOrigin(html: string, headerPolicy: string | undefined, pageOrigin: string): string {
    const meta = byTag(parseHtml(html), "meta").find((element) => attr(element, "name") === "referrer")
    const policy = (meta ? attr(meta, "content") : undefined) ?? headerPolicy ?? "strict-origin-when-cross-origin"
    return policy === "no-referrer" ? "null" : pageOrigin
  }

  function form(html: string): { action: URL; fields: Record<string, string> } {
    const parsed = parseHtml(html)
    const [element] = byTag(parsed, "form")
    const fields = Object.fromEntries(byTag(parsed, "input").filter((input) => attr(input, "type") === "hidden").map((input) => [attr(input, "name")!, attr(input, "value")!]))
    return { action: new URL(attr(element!, "action")!), fields }
  }

  test("the sign-in form, posted with the Origin its own page makes the browser send, signs in", async () => {
    const agent = request.agent(server)
    const page = await agent.get("/auth/signin?callbackUrl=%2Fdashboard").expect(200)
    const { action, fields } = form(page.text)
    const response = await agent
      .post(action.pathname)
      .set("Origin", browserOrigin(page.text, page.headers["referrer-policy"] as string | undefined, action.origin))
      .set("Sec-Fetch-Site", "same-origin")
      .type("form")
      .send({ ...fields, username: "alice", password: "correct-horse" })
    expect(response.status).toBe(302)
    expect(new URL(response.headers.location as string).searchParams.get("error")).toBeNull()
    expect(response.headers.location).toBe(`${action.origin}/dashboard`)
  })

  test("the sign-out form, posted with the Origin its own page makes the browser send, signs out", async () => {
    const agent = request.agent(server)
    const token = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "correct-horse" }).expect(302)
    const page = await agent.get("/auth/signout").expect(200)
    const { action, fields } = form(page.text)
    const response = await agent
      .post(action.pathname)
      .set("Origin", browserOrigin(page.text, page.headers["referrer-policy"] as string | undefined, action.origin))
      .set("Sec-Fetch-Site", "same-origin")
      .type("form")
      .send(fields)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.location as string).searchParams.get("error")).toBeNull()
    const session = await agent.get("/auth/session").expect(200)
    expect(session.body).toBeNull()
  })
})
