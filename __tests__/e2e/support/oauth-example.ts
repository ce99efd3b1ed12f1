/**
 * examples/oauth in its local-IdP mode, for the browser tests: the app on a port chosen before the
 * example is imported (it registers <origin>/auth/callback/local at the IdP it starts), the
 * example's environment set only while it is imported, oidc-provider's development notices kept
 * out of the output, and the steps to the IdP's login form.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Express } from "express"
import { expect, jest } from "@jest/globals"
import type { Page } from "playwright-core"

const EXAMPLE_MODULE = "../../../examples/oauth/index.js"
export const SESSION_COOKIE = "authjs.session-token"
export const PROVIDER_BUTTON = "Sign in with Local IdP (demo)"
const E2E_SECRET = "e2e-secret-oauth-4f1d2c3b5a69788796a5b4c3d2e1f0a9"

/** Leaves oidc-provider's development notices (in-memory adapter, TTLs, Node.js version) out of the output. */
export function quietOidcProvider(): void {
  const fromOidcProvider = (args: unknown[]) => typeof args[0] === "string" && args[0].startsWith("oidc-provider ")
  const originalWarn = console.warn.bind(console)
  const originalInfo = console.info.bind(console)
  jest.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    if (!fromOidcProvider(args)) originalWarn(...args)
  })
  jest.spyOn(console, "info").mockImplementation((...args: unknown[]) => {
    if (!fromOidcProvider(args)) originalInfo(...args)
  })
}

/** The browser is on the login form of the local IdP at `issuer` (examples/oauth/local-idp.js). */
export function atLocalIdpLogin(issuer: string): (url: URL) => boolean {
  return (url) => url.origin === issuer && /^\/interaction\/[^/]+$/.test(url.pathname)
}

/** Types `password` for demo at the local IdP's login page and submits it. */
export async function logInAtLocalIdp(page: Page, password: string): Promise<void> {
  await page.getByLabel("Username").fill("demo")
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
}

export interface OAuthExample {
  origin: string
  idp: { issuer: string; close(): Promise<void> }
  /** The browser is on the IdP's login form. */
  atIdpLogin(url: URL): boolean
  /** /profile, signed out → the built-in sign-in page → the local provider's button → the IdP's login page. Returns the sign-in page's URL. */
  toIdpLogin(page: Page): Promise<URL>
  /** Types `password` for demo at the IdP's login page and submits it. */
  logInAtIdp(page: Page, password: string): Promise<void>
  close(): Promise<void>
}

export async function startOAuthExample(env: Record<string, string | undefined> = {}): Promise<OAuthExample> {
  quietOidcProvider()
  const site: { app?: Express } = {}
  const server: Server = createServer((req, res) => site.app!(req, res))
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const vars: Record<string, string | undefined> = {
    PORT: String((server.address() as AddressInfo).port),
    LOCAL_IDP: "1",
    LOCAL_IDP_PORT: "0",
    AUTH_SECRET: E2E_SECRET,
    AUTH_GITHUB_ID: undefined,
    AUTH_GITHUB_SECRET: undefined,
    AUTH_GOOGLE_ID: undefined,
    AUTH_GOOGLE_SECRET: undefined,
    AUTH_URL: undefined,
    ...env,
  }
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]))
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
  apply(vars)
  let example: { app: Express; localIdp: OAuthExample["idp"] }
  try {
    example = (await import(EXAMPLE_MODULE)) as typeof example
  } finally {
    apply(saved)
  }
  site.app = example.app
  const idp = example.localIdp
  const atIdpLogin = atLocalIdpLogin(idp.issuer)
  return {
    origin,
    idp,
    atIdpLogin,
    async toIdpLogin(page) {
      await page.goto(`${origin}/profile`)
      await page.waitForURL((url) => url.origin === origin && url.pathname === "/auth/signin")
      const signin = new URL(page.url())
      expect(signin.searchParams.get("callbackUrl")).toBe(`${origin}/profile`)
      await page.getByRole("button", { name: PROVIDER_BUTTON }).click()
      await page.waitForURL(atIdpLogin)
      await page.getByRole("heading", { name: "Local IdP" }).waitFor()
      return signin
    },
    logInAtIdp: logInAtLocalIdp,
    async close() {
      await new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      })
      await idp?.close()
    },
  }
}
