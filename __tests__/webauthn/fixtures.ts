/**
 * Fixtures for the passkey suite: an app with a passkey provider and the memory adapter, on the
 * HTTPS site (AUTH_URL=https://app.test:3443/auth: rpId app.test, `__Secure-` cookies) or on
 * http://localhost in development; a browser-like client with its own cookie jar (supertest
 * would not send Secure cookies over http); seeded users and passkeys; and the catalog's oracles.
 */
import { expect } from "@jest/globals"
import type { Express } from "express"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import Passkey from "../../lib/providers/passkey.js"
import type { Adapter, AdapterUser } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import type { Provider } from "../../lib/providers/types.js"
import { OTHER_SECRET, SECRET, findCookie, isCleared, makeApp, request, setCookies, testConfig } from "../helpers/app.js"
import { SoftAuthenticator, b64url, type AuthenticationOverrides, type RegistrationOverrides } from "./soft-authenticator.js"

export { findCookie, isCleared, setCookies, SECRET }

export interface Site {
  authUrl?: string
  host: string
  origin: string
  rpId: string
  secure: boolean
}

export const TLS: Site = { authUrl: "https://app.test:3443/auth", host: "app.test:3443", origin: "https://app.test:3443", rpId: "app.test", secure: true }
export const DEV: Site = { host: "localhost", origin: "http://localhost", rpId: "localhost", secure: false }

export function names(site: Site = TLS) {
  const prefix = site.secure ? "__Secure-" : ""
  return { session: `${prefix}authjs.session-token`, csrf: `${site.secure ? "__Host-" : ""}authjs.csrf-token`, challenge: `${prefix}authjs.challenge` }
}

/** Runs `build` with the environment variables set (undefined: removed), then puts them back. */
export function withEnv<T>(vars: Record<string, string | undefined>, build: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]))
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
  apply(vars)
  try {
    return build()
  } finally {
    apply(saved)
  }
}

export interface BuildOptions {
  site?: Site
  providers?: Provider[]
  adapter?: Adapter
  config?: Partial<AuthConfig>
}

export interface Built {
  app: Express
  config: AuthConfig
  adapter: MemoryAdapterInstance
  site: Site
}

/** An app with Passkey() (or `providers`) and a MemoryAdapter; AUTH_URL is set only while it is built. */
export function buildApp(options: BuildOptions = {}): Built {
  const site = options.site ?? TLS
  const adapter = (options.adapter ?? MemoryAdapter()) as MemoryAdapterInstance
  const config = testConfig({ providers: options.providers ?? [Passkey()], adapter, ...options.config })
  const app = withEnv({ AUTH_URL: site.authUrl, NEXTAUTH_URL: undefined }, () => makeApp(config))
  return { app, config, adapter, site }
}

export type Res = Awaited<ReturnType<ReturnType<typeof request>["get"]>>

/** NO-LEAK: no stack trace, module path or secret in the headers or body. */
export function assertNoLeak(res: Res): void {
  const text = `${JSON.stringify(res.headers)}\n${res.text ?? ""}`
  expect(text).not.toMatch(/\bat [\w.<>$]+ \(.*:\d+:\d+\)|\.(?:ts|js|mjs|cjs):\d+:\d+/)
  expect(text).not.toMatch(/node_modules|TypeError|ReferenceError|RangeError|SyntaxError/)
  expect(text).not.toContain(process.cwd())
  for (const secret of [SECRET, OTHER_SECRET]) expect(text).not.toContain(secret)
}

/** A browser: one cookie jar (sent by hand, Secure or not), the site's Host header. */
export class Browser {
  readonly jar = new Map<string, string>()
  constructor(
    readonly app: Express,
    readonly site: Site = TLS,
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  absorb(res: Res): void {
    for (const cookie of setCookies(res)) {
      if (isCleared(cookie)) this.jar.delete(cookie.name)
      else this.jar.set(cookie.name, cookie.value ?? "")
    }
  }

  /** A second browser with a copy of this one's cookies. */
  clone(): Browser {
    const copy = new Browser(this.app, this.site)
    for (const [name, value] of this.jar) copy.jar.set(name, value)
    return copy
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Res> {
    let test = request(this.app).get(path).set("Host", this.site.host)
    if (this.jar.size) test = test.set("Cookie", this.cookieHeader())
    for (const [name, value] of Object.entries(headers)) test = test.set(name, value)
    const res = await test
    assertNoLeak(res)
    this.absorb(res)
    return res
  }

  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Res> {
    let test = request(this.app).post(path).set("Host", this.site.host).set("Content-Type", "application/x-www-form-urlencoded")
    if (this.jar.size) test = test.set("Cookie", this.cookieHeader())
    for (const [name, value] of Object.entries(headers)) test = test.set(name, value)
    const res = await test.send(new URLSearchParams(form).toString())
    assertNoLeak(res)
    this.absorb(res)
    return res
  }

  async csrf(): Promise<string> {
    const res = await this.get("/auth/csrf")
    expect(res.status).toBe(200)
    return res.body.csrfToken as string
  }

  /** GET /auth/webauthn-options/<provider>?<query>, as the page's script does. */
  options(query = "action=authenticate", provider = "passkey", headers: Record<string, string> = {}): Promise<Res> {
    return this.get(`/auth/webauthn-options/${provider}${query ? `?${query}` : ""}`, { Accept: "application/json", ...headers })
  }

  /** POST /auth/callback/<provider> with a fresh csrf token, `action` and `data` (JSON unless a string). */
  async callback(action: string, data: unknown, extra: Record<string, string> = {}, provider = "passkey", headers: Record<string, string> = {}): Promise<Res> {
    const csrfToken = await this.csrf()
    const form = { csrfToken, action, data: typeof data === "string" ? data : JSON.stringify(data), ...extra }
    return this.post(`/auth/callback/${provider}`, form, headers)
  }

  async session(): Promise<{ user?: { name?: string | null; email?: string | null } } | null> {
    const res = await this.get("/auth/session")
    expect(res.status).toBe(200)
    return res.body
  }
}

/** A soft authenticator for the site (its RP id and origin). */
export function softFor(site: Site = TLS, options: Partial<ConstructorParameters<typeof SoftAuthenticator>[0]> = {}): SoftAuthenticator {
  return new SoftAuthenticator({ rpId: site.rpId, origin: site.origin, ...options })
}

/** A stored user. */
export async function seedUser(adapter: Adapter, user: { id: string; email: string; name?: string }): Promise<AdapterUser> {
  return (adapter as Required<Adapter>).createUser({ id: user.id, email: user.email, name: user.name ?? null, emailVerified: null })
}

/** A stored passkey of `userId` (account and authenticator) for `soft`, with the stored counter `counter`. */
export async function seedPasskey(adapter: Adapter, userId: string, soft: SoftAuthenticator, counter = 0, provider = "passkey"): Promise<void> {
  const full = adapter as Required<Adapter>
  await full.linkAccount({ type: "webauthn", provider, providerAccountId: soft.id, userId })
  await full.createAuthenticator({
    credentialID: soft.id,
    userId,
    providerAccountId: soft.id,
    credentialPublicKey: soft.cosePublicKey().toString("base64"),
    counter,
    credentialDeviceType: "singleDevice",
    credentialBackedUp: false,
    transports: "internal",
  })
  soft.userHandle = b64url(userId)
  soft.signCount = counter
}

export const ALICE = { id: "user-alice", email: "alice@example.com", name: "Alice" }
export const BOB = { id: "user-bob", email: "bob@example.com", name: "Bob" }

/** Options (action=authenticate), then the soft authenticator's answer posted to the callback. */
export async function passkeySignIn(browser: Browser, soft: SoftAuthenticator, overrides: AuthenticationOverrides = {}, extra: Record<string, string> = {}) {
  const options = await browser.options("action=authenticate")
  expect(options.status).toBe(200)
  const data = soft.authenticate(options.body.options, overrides)
  const res = await browser.callback("authenticate", data, extra)
  return { options, data, res }
}

/** Options for a new user (by email), then the soft authenticator's registration posted to the callback. */
export async function passkeySignUp(browser: Browser, soft: SoftAuthenticator, email: string, overrides: RegistrationOverrides = {}, extra: Record<string, string> = {}) {
  const options = await browser.options(`email=${encodeURIComponent(email)}`)
  expect(options.status).toBe(200)
  expect(options.body.action).toBe("register")
  const data = soft.register(options.body.options, overrides)
  const res = await browser.callback("register", data, extra)
  return { options, data, res }
}

/** A successful sign-in: a redirect to `to` (default the site's root) with a session cookie. */
export function expectSignedIn(res: Res, site: Site = TLS, to = `${site.origin}/`): void {
  expect(res.status).toBe(302)
  expect(res.headers.location).toBe(to)
  const session = findCookie(res, names(site).session)
  expect(session?.value).toBeTruthy()
}

/** A passkey added to the signed-in account: back to the app, the session as it was (no new cookie; issue #24). */
export function expectPasskeyAdded(res: Res, site: Site = TLS, to = `${site.origin}/`): void {
  expect(res.status).toBe(302)
  expect(res.headers.location).toBe(to)
  expect(findCookie(res, names(site).session)).toBeUndefined()
}

/** SIGNED-OUT, seen through the browser's cookies. */
export async function expectSignedOut(browser: Browser): Promise<void> {
  expect(await browser.session()).toBeNull()
  const me = await browser.get("/api/me", { Accept: "application/json" })
  expect(me.status).toBe(401)
  const dashboard = await browser.get("/dashboard", { Accept: "text/html" })
  expect(dashboard.status).toBe(302)
  expect(new URL(dashboard.headers.location as string, browser.site.origin).pathname).toBe("/auth/signin")
}

/**
 * The catalog's refusal: 302 to the sign-in page with error=<type>, the challenge cookie cleared
 * (when the request carried one), no session cookie written, and SIGNED-OUT (unless the browser
 * was signed in before: then `signedOut: false`, and the caller checks who it still is).
 */
export async function expectRefused(res: Res, browser: Browser, options: { type?: string; cleared?: boolean; signedOut?: boolean } = {}): Promise<void> {
  expect(res.status).toBe(302)
  const location = new URL(res.headers.location as string)
  expect(location.origin).toBe(browser.site.origin)
  expect(location.pathname).toBe("/auth/signin")
  expect(location.searchParams.get("error")).toBe(options.type ?? "WebAuthnVerificationError")
  const { session, challenge } = names(browser.site)
  if (options.cleared !== false) expect(isCleared(findCookie(res, challenge))).toBe(true)
  const set = findCookie(res, session)
  expect(set === undefined || isCleared(set)).toBe(true)
  if (options.signedOut !== false) await expectSignedOut(browser)
}

/** The stored counter of a credential. */
export function storedCounter(adapter: MemoryAdapterInstance, credentialId: string): number | undefined {
  return adapter.store.authenticators.get(credentialId)?.counter
}
