/**
 * Scale-out behind a real reverse proxy (issue #13): two Gatehouse processes
 * (support/proxied-app.js) share PostgreSQL (database sessions, users, tokens, passkeys) and Redis
 * (rate limits, used challenges, revocations) behind a private nginx (support/nginx.ts) that
 * terminates TLS for https://app.test:<port> and balances round robin. Chromium (app.test mapped
 * to 127.0.0.1, nginx's self-signed certificate accepted) signs in with each provider kind:
 * credentials, OAuth against oidc-provider (examples/oauth/local-idp.js), an email link from a real
 * SMTP sink, and a passkey (a CDP virtual authenticator). nginx's log shows that every request of
 * each flow was answered by the other process from the one before. The URLs Gatehouse wrote (the
 * redirect_uri, the mailed link, the redirects) are https://app.test:<port>, from nginx's
 * X-Forwarded-Proto/-Host (believed because Express trusts the loopback hop), and the cookies are
 * `Secure` with their `__Secure-`/`__Host-` names. Sign-out and the rate limits hold across both.
 */
import { jest } from "@jest/globals"
import { randomUUID } from "node:crypto"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { createClient } from "redis"
import { linkIn, startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"
import { startApp, stopAll, type AppProcess } from "../resilience/support/process.js"
import { addVirtualAuthenticator, launchBrowser } from "./harness.js"
import { continueAs } from "./support/signin.js"
import { reserveNginxPort, startNginx, type Nginx } from "./support/nginx.js"

jest.setTimeout(120_000)

const APP = new URL("./support/proxied-app.js", import.meta.url).pathname
// A specifier in a variable: the example is plain JavaScript without type declarations.
const LOCAL_IDP_MODULE = "../../examples/oauth/local-idp.js"
type StartLocalIdp = (options: { clientId: string; clientSecret: string; redirectUris: string[] }) => Promise<{ issuer: string; close(): Promise<void> }>
const SESSION = "__Secure-authjs.session-token"
const prefix = uniquePrefix("nginx")
const redisPrefix = `e2e-nginx:${randomUUID()}:`

let port: number
let origin: string
let nginx: Nginx
let smtp: SmtpSink
let idp: { issuer: string; close(): Promise<void> }
let apps: AppProcess[] = []
let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  port = await reserveNginxPort()
  origin = `https://app.test:${port}`
  smtp = await startSmtp()
  const { startLocalIdp } = (await import(LOCAL_IDP_MODULE)) as { startLocalIdp: StartLocalIdp }
  idp = await startLocalIdp({ clientId: "gatehouse-nginx", clientSecret: "nginx-client-secret-0123456789", redirectUris: [`${origin}/auth/callback/local`] })
  const env = (name: string, migrate: boolean) => ({
    AUTH_URL: undefined,
    GH_NAME: name,
    GH_SECRET: "nginx-e2e-secret-5c0e1d2f3a4b5c6d7e8f9a0b1c2d3e4f",
    GH_DB: DATABASES.postgres,
    GH_TABLE_PREFIX: prefix,
    GH_MIGRATE: migrate ? "1" : "0",
    GH_REDIS_URL: process.env.GATEHOUSE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    GH_REDIS_PREFIX: redisPrefix,
    GH_SMTP: smtp.url,
    GH_OIDC_ISSUER: idp.issuer,
    GH_OIDC_ID: "gatehouse-nginx",
    GH_OIDC_SECRET: "nginx-client-secret-0123456789",
  })
  const first = await startApp("a", env("a", true), APP)
  const second = await startApp("b", env("b", false), APP)
  apps = [first, second]
  nginx = await startNginx(port, "app.test", apps.map((app) => app.port))
  browser = await launchBrowser([`--host-resolver-rules=MAP app.test 127.0.0.1`, "--ignore-certificate-errors"])
})

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()))
  await browser?.close()
  await nginx?.stop()
  await stopAll()
  await smtp?.close()
  await idp?.close()
  const redis = createClient({ url: process.env.GATEHOUSE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379" })
  await redis.connect()
  for await (const keys of redis.scanIterator({ MATCH: `${redisPrefix}*` })) for (const key of Array.isArray(keys) ? keys : [keys]) await redis.del(key)
  redis.destroy()
  const pg = (await import("pg")).default
  const client = new pg.Client({ connectionString: DATABASES.postgres })
  await client.connect()
  for (const table of ["authenticators", "sessions", "accounts", "verification_tokens", "users"]) await client.query(`drop table if exists "${prefix}${table}" cascade`).catch(() => undefined)
  await client.query(`drop table if exists "${prefix}gatehouse_migrations"`).catch(() => undefined)
  await client.end()
})

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting")
    await new Promise((resume) => setTimeout(resume, 50))
  }
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true })
  contexts.push(context)
  return context.newPage()
}

/** What this flow asked of the processes: nginx's log since `from`, in order. */
function since(from: number) {
  return nginx.requests().slice(from)
}

/** Every request in `from`… went to the other process than the one before it, and both served. */
function expectAlternating(from: number): void {
  const requests = since(from)
  expect(requests.length).toBeGreaterThan(2)
  const backends = requests.map((request) => request.backend)
  expect(new Set(backends)).toEqual(new Set(apps.map((app) => app.port)))
  backends.forEach((backend, index) => {
    if (index) expect([index, requests[index]?.path, backend === backends[index - 1]]).toEqual([index, requests[index]?.path, false])
  })
}

/** Who the browser's session belongs to (GET /api/me from the page, with its cookies), or null. */
async function me(page: Page): Promise<string | null> {
  if (new URL(page.url()).origin !== origin) await page.goto(`${origin}/`)
  return page.evaluate(async () => {
    const response = await fetch("/api/me", { headers: { Accept: "application/json" }, redirect: "manual" })
    return response.status === 200 ? (((await response.json()) as { user: { email: string } }).user.email ?? null) : null
  })
}

async function expectSecureSession(page: Page): Promise<void> {
  const cookies = await page.context().cookies(origin)
  const session = cookies.find((cookie) => cookie.name === SESSION)
  expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax", path: "/" })
  expect(cookies.find((cookie) => cookie.name === "__Host-authjs.csrf-token")?.secure ?? true).toBe(true)
  expect(cookies.filter((cookie) => cookie.name.startsWith("authjs."))).toEqual([])
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${origin}/auth/signout`)
  await page.getByRole("button", { name: "Sign out" }).click()
  await page.waitForURL((url) => url.pathname !== "/auth/signout")
  // Database sessions: the row is gone for both processes (several reads, alternating).
  for (let i = 0; i < 4; i++) expect(await me(page)).toBeNull()
}

describe("two processes behind nginx (TLS, round robin), in Chromium", () => {
  test("credentials: signed in, every step on the other process, Secure cookies; signed out on both", async () => {
    const page = await newPage()
    const from = nginx.requests().length
    await page.goto(`${origin}/auth/signin`)
    // Identifier-first (issue #26): the username on step one, the password on step two.
    await continueAs(page, "alice")
    await page.getByLabel("Password", { exact: true }).fill("correct-horse")
    await page.getByLabel("Password", { exact: true }).press("Enter")
    await page.waitForURL(`${origin}/`)
    await page.getByText("Signed in as alice@example.com.").waitFor()
    expectAlternating(from)
    await expectSecureSession(page)
    for (let i = 0; i < 4; i++) expect(await me(page)).toBe("alice@example.com")
    await signOut(page)
  })

  test("OAuth against oidc-provider: the redirect_uri is https://app.test:<port>/auth/callback/local; signed in across both", async () => {
    const page = await newPage()
    const from = nginx.requests().length
    const authorizations: URL[] = []
    page.on("request", (request) => {
      const url = new URL(request.url())
      if (url.origin === idp.issuer && url.pathname === "/auth") authorizations.push(url)
    })
    await page.goto(`${origin}/auth/signin`)
    await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
    await page.waitForURL((url) => url.origin === idp.issuer && url.pathname.startsWith("/interaction/"))
    await page.getByLabel("Password").fill("demo")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL(`${origin}/`)
    await page.getByText("Signed in as demo@example.com.").waitFor()
    expect(authorizations[0]?.searchParams.get("redirect_uri")).toBe(`${origin}/auth/callback/local`)
    expectAlternating(from)
    await expectSecureSession(page)
    await signOut(page)
  })

  test("email link from the SMTP sink: the link is https://app.test:<port>; asked on one process, confirmed on the other", async () => {
    const page = await newPage()
    const email = `nginx-${randomUUID().slice(0, 8)}@example.com`
    const from = nginx.requests().length
    const mails = smtp.messages.length
    await page.goto(`${origin}/auth/signin`)
    await continueAs(page, email)
    await page.getByRole("button", { name: "Email me a link or code" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/verify-request")
    await until(() => smtp.messages.length > mails)
    const link = linkIn(smtp.messages[smtp.messages.length - 1]!)
    expect(link.origin).toBe(origin)
    await page.goto(link.href)
    if (new URL(page.url()).pathname.startsWith("/auth/callback/")) await page.locator('form[method="post"] button[type="submit"]').first().click()
    await page.waitForURL(`${origin}/`)
    await page.getByText(`Signed in as ${email}.`).waitFor()
    expectAlternating(from)
    await expectSecureSession(page)
    await signOut(page)
  })

  test("passkey: created after the address is proven, then used to sign in; the ceremony's requests alternate", async () => {
    const page = await newPage()
    const authenticator = await addVirtualAuthenticator(page)
    const email = `passkey-${randomUUID().slice(0, 8)}@example.com`
    const from = nginx.requests().length
    await page.goto(`${origin}/auth/signin`)
    await continueAs(page, email)
    await page.getByRole("button", { name: "Email me a link to create a passkey" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/verify-request")
    await until(() => smtp.messages.some((mail) => mail.envelope.to.includes(email)))
    const link = linkIn(smtp.messages.filter((mail) => mail.envelope.to.includes(email))[0]!)
    expect(link.origin).toBe(origin)
    await page.goto(link.href)
    if (new URL(page.url()).pathname.startsWith("/auth/callback/")) await page.locator('form[method="post"] button[type="submit"]').first().click()
    await page.waitForURL((url) => url.pathname === "/auth/passkey-setup/passkey")
    await page.getByRole("button", { name: "Create a passkey" }).click()
    await page.waitForURL((url) => url.pathname !== "/auth/passkey-setup/passkey")
    expect(await authenticator.credentials()).toHaveLength(1)
    await signOut(page)
    await page.goto(`${origin}/auth/signin`)
    // With presence simulated, the page's conditional (autofill) request completes by itself, as
    // soon as the page makes it; the button is the way in if it has not.
    await Promise.race([page.waitForURL(`${origin}/`), page.getByRole("button", { name: "Sign in with a passkey" }).click().catch(() => undefined)])
    await page.waitForURL(`${origin}/`)
    await page.getByText(`Signed in as ${email}.`).waitFor()
    expectAlternating(from)
    await expectSecureSession(page)
    await signOut(page)
  })

  test("rate limits hold across both: 10 wrong passwords for one account, alternating processes, then 429 on either", async () => {
    const page = await newPage()
    await page.goto(`${origin}/`)
    const from = nginx.requests().length
    // From the page, as its own script would post: a redirect (a refused password) reads as 302.
    const statuses = await page.evaluate(async () => {
      const { csrfToken } = (await (await fetch("/auth/csrf")).json()) as { csrfToken: string }
      const answers: number[] = []
      for (let i = 0; i < 12; i++) {
        const response = await fetch("/auth/callback/credentials", { method: "POST", body: new URLSearchParams({ csrfToken, username: "alice", password: `wrong-${i}` }), redirect: "manual" })
        answers.push(response.type === "opaqueredirect" ? 302 : response.status)
      }
      return answers
    })
    expect(statuses).toEqual([...Array(10).fill(302), 429, 429])
    const backends = since(from).map((entry) => entry.backend)
    expect(new Set(backends).size).toBe(2)
  })
})
