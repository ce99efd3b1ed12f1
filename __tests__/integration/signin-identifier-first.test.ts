/**
 * The identifier-first sign-in page (issue #26), as the router serves it: step one is one field
 * and "Continue" (a GET form back to the page, so it works without JavaScript) beside the OAuth
 * buttons; step two offers what that identifier's kind can use, the identifier carried along; a
 * refused attempt comes back with the typed identifier (never the password) and the error beside
 * its field; a sign-in leaves a "Last used" cookie (kind and provider id, HttpOnly, SameSite=Lax)
 * that marks the method; a configuration with one method keeps its one step. Step two never
 * depends on whether an account exists.
 */
import { MemoryAdapter } from "../../adapters/memory/index.js"
import GitHub from "../../lib/providers/github.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import Password from "../../lib/providers/password.js"
import type { AuthConfig } from "../../lib/types.js"
import { attr, byTag, parseHtml, textOf, type Element } from "../unit/pages/html.js"
import { credentials, csrfToken, findCookie, makeApp, request, serve, testConfig } from "../helpers/app.js"

function full(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({
    adapter: MemoryAdapter(),
    providers: [credentials(), GitHub({ clientId: "id", clientSecret: "secret" }), Nodemailer({ server: "smtp://127.0.0.1:9" }), Passkey()],
    rateLimit: false,
    ...overrides,
  })
}

// One server for the whole file: same-origin callback URLs, and pages that compare byte for byte.
const served = await serve(makeApp(full()))
const app = served.url
const CALLBACK = `${app}/dashboard`
afterAll(() => served.close())

async function page(target: string | ReturnType<typeof makeApp>, path: string, cookie?: string) {
  const pending = request(target).get(path).set("Accept", "text/html")
  if (cookie) pending.set("Cookie", cookie)
  const response = await pending
  return { status: response.status, html: response.text, parsed: parseHtml(response.text) }
}

const forms = (parsed: ReturnType<typeof parseHtml>) => byTag(parsed, "form")
const inside = (parsed: ReturnType<typeof parseHtml>, form: Element, tag: string) =>
  parsed.elements.filter((element) => {
    if (element.tagName !== tag) return false
    for (let node = element.parentNode; node; node = (node as Element).parentNode) if (node === form) return true
    return false
  })
const buttons = (parsed: ReturnType<typeof parseHtml>) => byTag(parsed, "button").map((button) => textOf(button).trim())
const visibleInputs = (parsed: ReturnType<typeof parseHtml>) => byTag(parsed, "input").filter((input) => attr(input, "type") !== "hidden" && attr(input, "hidden") === undefined)

describe("step one", () => {
  test("one identifier field and Continue, a GET form to the page that keeps the callback URL; the OAuth button and the passkey beside it", async () => {
    const { status, parsed } = await page(app, `/auth/signin?callbackUrl=${encodeURIComponent(CALLBACK)}`)
    expect(status).toBe(200)
    const identify = forms(parsed).find((form) => attr(form, "method") === "get")!
    expect(attr(identify, "action")).toMatch(/\/auth\/signin$/)
    expect(inside(parsed, identify, "input").map((input) => [attr(input, "name"), attr(input, "type"), attr(input, "value") ?? null])).toEqual([
      ["callbackUrl", "hidden", CALLBACK],
      ["login_hint", "text", null],
    ])
    expect(visibleInputs(parsed).map((input) => attr(input, "name"))).toEqual(["login_hint"])
    // Passkeys are offered in the field's autofill (conditional UI).
    expect(attr(visibleInputs(parsed)[0]!, "autocomplete")).toBe("username webauthn")
    expect(buttons(parsed)).toEqual(["Sign in with GitHub", "Continue", "Sign in with a passkey"])
  })
})

describe("step two", () => {
  test("a username: the password form with the username carried (not asked again), the passkey; no magic link; a way back", async () => {
    const { parsed } = await page(app, `/auth/signin?login_hint=alice&callbackUrl=${encodeURIComponent(CALLBACK)}`)
    expect(buttons(parsed)).toEqual(["Sign in with a passkey", "Sign in"])
    const password = forms(parsed).find((form) => attr(form, "action")?.endsWith("/callback/credentials"))!
    const carried = inside(parsed, password, "input").find((input) => attr(input, "name") === "username")!
    expect([attr(carried, "value"), attr(carried, "autocomplete"), attr(carried, "hidden")]).toEqual(["alice", "username", ""])
    expect(visibleInputs(parsed).map((input) => [attr(input, "name"), attr(input, "autofocus") !== undefined])).toEqual([["password", true]])
    const back = byTag(parsed, "a").find((link) => textOf(link) === "Use another account")!
    expect(new URL(attr(back, "href")!, "http://x").searchParams.get("callbackUrl")).toBe(CALLBACK)
    expect(new URL(attr(back, "href")!, "http://x").searchParams.has("login_hint")).toBe(false)
  })

  test("an address: also a link or code by email (the address carried), and creating a passkey as a button, not a field", async () => {
    const { parsed } = await page(app, "/auth/signin?login_hint=ada%40example.com")
    expect(buttons(parsed)).toEqual(["Sign in with a passkey", "Email me a link or code", "Sign in", "Email me a link to create a passkey"])
    expect(visibleInputs(parsed).map((input) => attr(input, "name"))).toEqual(["password"])
    const emailForms = forms(parsed).filter((form) => attr(form, "action")?.endsWith("/signin/nodemailer"))
    for (const form of emailForms) expect(attr(inside(parsed, form, "input").find((input) => attr(input, "name") === "email")!, "value")).toBe("ada@example.com")
  })

  test("an address, with password accounts beside a username form: one password field, the one that takes addresses", async () => {
    const both = makeApp(full({ providers: [credentials({ name: "username and password" }), Password({ sendMail: () => undefined }), Passkey()] }))
    const forAddress = await page(both, "/auth/signin?login_hint=ada%40example.com")
    expect(visibleInputs(forAddress.parsed).map((input) => attr(input, "name"))).toEqual(["password"])
    // The sign-in forms (creating a passkey is a form of its own, after them).
    const signIns = (parsed: ReturnType<typeof parseHtml>) =>
      forms(parsed)
        .filter((form) => attr(form, "action")?.includes("/callback/") && attr(form, "data-action") !== "register")
        .map((form) => attr(form, "action")!.replace(/.*\/callback\//, ""))
    expect(signIns(forAddress.parsed)).toEqual(["passkey", "password"])
    expect(signIns((await page(both, "/auth/signin?login_hint=demo")).parsed)).toEqual(["passkey", "credentials"])
  })

  test("the passkey sign-in form sends no address of its own (the page's other values never leak into it)", async () => {
    const { parsed } = await page(app, "/auth/signin?login_hint=ada%40example.com")
    const passkey = forms(parsed).find((form) => attr(form, "data-action") === "authenticate")!
    expect(inside(parsed, passkey, "input").map((input) => attr(input, "name"))).toEqual(["csrfToken", "callbackUrl", "action", "data"])
    expect(parsed.elements.some((element) => attr(element, "value") === "[object Object]")).toBe(false)
  })

  test("no account enumeration: the page for an address with an account and one without differ only by the address", async () => {
    const known = await page(app, "/auth/signin?login_hint=alice%40example.com")
    const unknown = await page(app, "/auth/signin?login_hint=nobody%40example.com")
    const plain = (html: string) => html.replace(/value="[0-9a-f]{64}"/g, "").replaceAll("alice@example.com", "<typed>").replaceAll("nobody@example.com", "<typed>")
    expect(plain(known.html)).toBe(plain(unknown.html))
  })

  test("only addresses are taken and a username was typed: step one again, the error beside the field, what was typed kept", async () => {
    const emailOnly = makeApp(full({ providers: [Nodemailer({ server: "smtp://127.0.0.1:9" }), Passkey()] }))
    const { status, parsed } = await page(emailOnly, "/auth/signin?login_hint=alice")
    expect(status).toBe(200)
    const field = visibleInputs(parsed)[0]!
    expect([attr(field, "name"), attr(field, "type"), attr(field, "value"), attr(field, "aria-invalid")]).toEqual(["login_hint", "email", "alice", "true"])
    const described = parsed.elements.find((element) => attr(element, "id") === attr(field, "aria-describedby"))!
    expect(textOf(described)).toBe("Enter an email address, like name@example.com.")
    expect(attr(described, "role")).toBe("alert")
    expect(byTag(parsed, "label").map(textOf)).toEqual(["Email"])
  })
})

describe("a refused attempt", () => {
  test("wrong password: back to step two with the username (never the password) and the error beside the password field", async () => {
    const agent = request.agent(app)
    const token = await csrfToken(agent)
    const refused = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "wrong-secret", callbackUrl: CALLBACK })
    expect(refused.status).toBe(302)
    const location = new URL(refused.headers.location as string)
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: "CredentialsSignin", code: "credentials", callbackUrl: CALLBACK, login_hint: "alice" })
    expect(refused.headers.location).not.toContain("wrong-secret")
    const shown = await agent.get(`${location.pathname}${location.search}`).set("Accept", "text/html")
    const parsed = parseHtml(shown.text)
    const password = visibleInputs(parsed)[0]!
    expect([attr(password, "name"), attr(password, "value"), attr(password, "aria-invalid")]).toEqual(["password", undefined, "true"])
    const described = parsed.elements.find((element) => attr(element, "id") === attr(password, "aria-describedby"))!
    expect([textOf(described), attr(described, "role")]).toEqual(["Those details did not match. Check them and try again.", "alert"])
    expect(shown.text).not.toContain("wrong-secret")
  })
})

describe("Last used", () => {
  test("a sign-in sets an HttpOnly, SameSite=Lax cookie with the method only; the page marks that method and lists it first", async () => {
    const agent = request.agent(app)
    const token = await csrfToken(agent)
    const signedIn = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "correct-horse", callbackUrl: CALLBACK })
    expect(signedIn.status).toBe(302)
    const cookie = findCookie(signedIn, "gatehouse.last-used")!
    expect(cookie).toMatchObject({ value: "credentials.credentials", httpOnly: true, sameSite: "lax", path: "/" })
    expect(cookie.maxAge).toBeGreaterThan(30 * 24 * 3600)
    const { parsed } = await page(app, "/auth/signin?login_hint=alice", "gatehouse.last-used=credentials.credentials")
    expect(buttons(parsed)).toEqual(["Sign in Last used", "Sign in with a passkey"])
    const badge = byTag(parsed, "span").find((span) => attr(span, "class") === "badge")!
    expect(textOf(badge)).toBe("Last used")
  })

  test("an OAuth provider last used is marked on step one; a cookie naming no configured provider of that kind marks nothing", async () => {
    expect(buttons((await page(app, "/auth/signin", "gatehouse.last-used=oauth.github")).parsed)).toEqual(["Sign in with GitHub Last used", "Continue", "Sign in with a passkey"])
    for (const value of ["email.github", "oauth.gitlab", "github", "oauth.", "x".repeat(300)]) {
      expect((await page(app, "/auth/signin", `gatehouse.last-used=${value}`)).html).not.toContain("Last used")
    }
  })
})

describe("one method stays one step", () => {
  test("only a credentials form: its fields at once, as before (and OAuth beside it)", async () => {
    const single = makeApp(testConfig({ providers: [credentials(), GitHub({ clientId: "id", clientSecret: "secret" })] }))
    const { parsed } = await page(single, "/auth/signin")
    expect(forms(parsed).every((form) => attr(form, "method") === "post")).toBe(true)
    expect(visibleInputs(parsed).map((input) => attr(input, "name"))).toEqual(["username", "password"])
    expect(buttons(parsed)).toEqual(["Sign in with GitHub", "Sign in"])
    // A login_hint fills the username in.
    const hinted = await page(single, "/auth/signin?login_hint=bob")
    expect(attr(visibleInputs(hinted.parsed)[0]!, "value")).toBe("bob")
  })

  test("only OAuth buttons: no field at all", async () => {
    const oauthOnly = makeApp(testConfig({ providers: [GitHub({ clientId: "id", clientSecret: "secret" })] }))
    const { parsed } = await page(oauthOnly, "/auth/signin?login_hint=ada%40example.com")
    expect(byTag(parsed, "input").filter((input) => attr(input, "type") !== "hidden")).toEqual([])
    expect(buttons(parsed)).toEqual(["Sign in with GitHub"])
  })
})
