/**
 * XSS on Gatehouse pages, XSS-01, XSS-02, XSS-04 (SECURITY-CATALOG.md §11), judged on the DOM parse5
 * builds. XSS-03 (IdP profile values) comes with OAuth; the browser-suite parts live in e2e.
 */
import type { IncomingMessage } from "node:http"
import { afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { Express } from "express"
import { CredentialsSignin } from "../../lib/index.js"
import Credentials from "../../lib/providers/credentials.js"
import type { AuthConfig } from "../../lib/types.js"
import {
  AUTH_URL, BASE, SECRET, buildApp, call, csrfPair, elements, expectCleanDom, forms, makeApp, preserveEnv, signIn, testConfig,
} from "./fixtures.js"

preserveEnv("AUTH_URL")

const PROBES: Array<[string, string]> = [
  ["X1", "<script>alert(1)</script>"],
  ["X2", '"><img src=x onerror=alert(1)>'],
  ["X3", "'><svg onload=alert(1)>"],
  ["X4", "javascript:alert(1)"],
  ["X5", "</title><script>alert(1)</script>"],
  ["X6", '" autofocus onfocus=alert(1) x="'],
  ["X7", "<%= process.version %>"],
  ["X7b", "<%- 7*7 %>"],
  ["X8", "%253Cscript%253Ealert(1)%253C/script%253E"],
  ["X9", "</script><script>alert(1)</script>"],
  ["X9b", "\u2028\u2029"],
  ["X10", "&lt;script&gt;"],
  ["X10b", "&#x3C;script&#x3E;"],
  ["X11", "+ADw-script+AD4-alert(1)+ADw-/script+AD4-"],
  ["X13", "<b>".repeat(1000)],
]
/** Sent without re-encoding: overlong UTF-8 bytes for `<` and `>` (X12). */
const RAW_PROBES: Array<[string, string]> = [["X12", "%C0%BCscript%C0%BE"], ["X12b", "%FF%FE%3Cscript%3E"]]

const enc = encodeURIComponent
const PAGES: Array<[string, (probe: string) => string]> = [
  ["sign-in error", (p) => `/auth/signin?error=${p}`],
  ["sign-in code", (p) => `/auth/signin?error=CredentialsSignin&code=${p}`],
  ["sign-in callbackUrl", (p) => `/auth/signin?callbackUrl=${p}`],
  ["error page error", (p) => `/auth/error?error=${p}`],
  ["sign-out callbackUrl", (p) => `/auth/signout?callbackUrl=${p}`],
  ["verify-request provider/type", (p) => `/auth/verify-request?provider=${p}&type=${p}`],
]

let app: Express
let throwing: Express
beforeAll(() => {
  app = buildApp(AUTH_URL).app
  throwing = buildApp(AUTH_URL, {
    providers: [Credentials({ credentials: { username: {}, password: { type: "password" } }, authorize: async () => { throw new CredentialsSignin() } })],
  }).app
})
afterEach(() => {
  jest.restoreAllMocks()
})

function expectSafePage(res: { status: number; headers: Record<string, unknown>; text: string }, probe: string): void {
  expect(res.status).toBe(200)
  expect(res.headers["content-type"]).toBe("text/html; charset=utf-8")
  expectCleanDom(res.text)
  if (/[<>"']/.test(probe)) expect(res.text).not.toContain(probe)
  expect(res.text).not.toContain(process.version)
}

describe("XSS-01 reflected query values on every page", () => {
  const cases = PAGES.flatMap(([page, path]) => [
    ...PROBES.map(([id, probe]) => [`${page} ${id}`, path(enc(probe)), probe] as const),
    ...RAW_PROBES.map(([id, probe]) => [`${page} ${id}`, path(probe), probe] as const),
  ])

  it.each(cases)("%s", async (_name, path, probe) => {
    const res = await call(app, "GET", path, { accept: "text/html" })
    expectSafePage(res, probe)
    if (path.startsWith("/auth/signin?error=") && !path.includes("CredentialsSignin")) expect(res.text).toContain("We could not sign you in. Please try again.")
    if (path.startsWith("/auth/error")) expect(res.text).toContain("Something went wrong")
    for (const form of forms(res.text)) {
      expect(new URL(form.action).origin).toBe(BASE)
      if (form.fields.callbackUrl !== undefined) expect(new URL(form.fields.callbackUrl).origin).toBe(BASE)
    }
  })

  it("EJS tags in a callbackUrl are kept as literal text, never evaluated", async () => {
    const res = await call(app, "GET", `/auth/signin?callbackUrl=${enc("/<%- 7*7 %>")}`)
    const value = forms(res.text)[0]!.fields.callbackUrl!
    expect(new URL(value).pathname).toBe("/%3C%-%207*7%20%%3E")
    expect(res.text).not.toMatch(/\b49\b/)
  })

  it("a 100 kB value never causes a 5xx", async () => {
    const huge = "<script>".repeat(12_800)
    const res = await call(app, "GET", `/auth/error?error=${enc(huge)}`, { accept: "text/html" })
    // Node's default 16 kB header limit answers 431; a server with a larger limit gets the page.
    expect([200, 431]).toContain(res.status)
    if (res.status === 200) expectSafePage(res, huge)
    const pair = await csrfPair(app)
    const post = await call(throwing, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: { csrfToken: pair.token, username: "a", password: "b", callbackUrl: huge } })
    expect(post.status).toBe(413)
  })

  it.each(PROBES)(
    "credentials failure round trip with callbackUrl %s",
    async (_id, probe) => {
      const pair = await csrfPair(throwing)
      const res = await call(throwing, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: { csrfToken: pair.token, username: "a", password: "b", callbackUrl: probe } })
      expect(res.status).toBe(302)
      const target = new URL(String(res.headers.location))
      expect(target.origin).toBe(BASE)
      expect(target.searchParams.get("error")).toBe("CredentialsSignin")
      const page = await call(throwing, "GET", `${target.pathname}${target.search}`, { cookie: pair.cookie, accept: "text/html" })
      expectSafePage(page, probe)
      expect(page.text).toContain("Those details did not match")
    },
  )
})

describe("XSS-02 configuration-sourced values through a lazy configuration", () => {
  const X2 = '"><img src=x onerror=alert(1)>'
  const tenants: Record<string, Partial<AuthConfig>> = {
    // Two forms, so each button names its provider (a lone form's says "Sign in", issue #26).
    name: { providers: [Credentials({ name: X2, credentials: { username: { label: X2, placeholder: X2 } }, authorize: async () => null }), Credentials({ id: "pin", name: X2, credentials: { pin: { label: X2 } }, authorize: async () => null })] },
    id: { providers: [Credentials({ id: 'a"b', authorize: async () => null })] },
    brand: { theme: { brandColor: "red;}</style><script>alert(1)</script>" } },
    logoJs: { theme: { logo: "javascript:alert(1)" } },
    logoData: { theme: { logo: "data:image/svg+xml,<svg onload=alert(1)>" } },
    button: { theme: { buttonText: X2 } },
    scheme: { theme: { colorScheme: X2 as never } },
    good: { theme: { brandColor: "#123456", buttonText: "rgb(1 2 3)", logo: "https://img.example/logo.png", colorScheme: "dark" } },
  }
  const configs = new Map(Object.entries(tenants).map(([tenant, overrides]) => [tenant, testConfig({ trustHost: false, ...overrides })]))
  let lazy: Express
  beforeAll(() => {
    process.env.AUTH_URL = AUTH_URL
    lazy = makeApp(((req: IncomingMessage) => configs.get(String(req.headers["x-tenant"]))) as unknown as AuthConfig)
  })

  const pages = ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"]

  it("provider names and field labels are escaped as text", async () => {
    for (const path of pages) {
      const res = await call(lazy, "GET", path, { headers: { "X-Tenant": "name" }, accept: "text/html" })
      expect(res.status).toBe(200)
      expectCleanDom(res.text)
    }
    const signin = await call(lazy, "GET", "/auth/signin", { headers: { "X-Tenant": "name" } })
    const texts = elements(signin.text).flatMap((n) => (n.childNodes ?? []).filter((c) => c.nodeName === "#text").map((c) => c.value ?? ""))
    expect(texts.some((t) => t.includes(`Sign in with ${X2}`))).toBe(true)
    expect(texts.some((t) => t.includes(X2))).toBe(true)
  })

  it.each(["id", "brand", "logoJs", "logoData", "button", "scheme"])("%s: refused when the configuration is resolved, a named error, never rendered", async (tenant) => {
    const logs = jest.spyOn(console, "error").mockImplementation(() => undefined)
    for (const path of pages) {
      const res = await call(lazy, "GET", path, { headers: { "X-Tenant": tenant }, accept: "text/html" })
      expect(res.status).toBe(500)
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8")
      expect(res.body.error.type).toBe("Configuration")
      expect(res.text).not.toMatch(/alert|<script|<svg|<img/)
    }
    expect(logs.mock.calls.flat().join("\n")).toMatch(/InvalidOption: (providers\[0\]\.id|theme\.\w+)/)
  })

  it("a valid theme is used, with the logo as an http(s) image and the CSS allowed by its hash only", async () => {
    const res = await call(lazy, "GET", "/auth/signin", { headers: { "X-Tenant": "good" } })
    expect(res.status).toBe(200)
    expectCleanDom(res.text, ["https://img.example/logo.png"])
    const style = elements(res.text).find((n) => n.tagName === "style")
    const css = style?.childNodes?.[0]?.value ?? ""
    expect(css).toContain("--brand:#123456")
    const { createHash } = await import("node:crypto")
    expect(String(res.headers["content-security-policy"])).toContain(`style-src 'sha256-${createHash("sha256").update(css).digest("base64")}'`)
  })
})

describe("XSS-04 JSON endpoints cannot be rendered as HTML", () => {
  const hostile = { id: "u1", name: "<img src=x onerror=alert(1)>\u2028\u2029&", email: "x\"onmouseover=alert(1)\"@example.com", image: "javascript:alert(1)" }
  let userApp: Express
  beforeAll(() => {
    userApp = buildApp(AUTH_URL, { providers: [Credentials({ name: "<b>Creds</b>", credentials: {}, authorize: async () => hostile })] }).app
  })

  it("session, providers, csrf and the 401 of requireAuth answer JSON with nosniff and escaped markup", async () => {
    const { session } = await signIn(userApp)
    expect(session).not.toBe("")
    const answers = [
      await call(userApp, "GET", "/auth/session", { cookie: session, accept: "text/html" }),
      await call(userApp, "GET", "/auth/providers", { accept: "text/html" }),
      await call(userApp, "GET", "/auth/csrf", { accept: "text/html" }),
      await call(userApp, "GET", "/api/me", { accept: "application/json" }),
      await call(userApp, "GET", "/api/me", { accept: "*/*" }),
    ]
    expect(answers[0]!.body.user.name).toBe(hostile.name)
    for (const res of answers) {
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8")
      expect(res.headers["x-content-type-options"]).toBe("nosniff")
      expect(res.text).not.toMatch(/[<>&\u2028\u2029]/)
    }
    expect(answers[0]!.text).toContain("\\u003cimg")
    expect(answers[0]!.text).toContain("\\u2028\\u2029\\u0026")
    expect(answers[1]!.text).toContain("\\u003cb\\u003eCreds")
    expect(answers.map((r) => r.text).join("")).not.toContain(SECRET)
  })
})
