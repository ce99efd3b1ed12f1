/**
 * What the identity-provider suites share (not a test file): an app with `oidcProvider` on a real
 * HTTP server (127.0.0.1, port 0), signing people in with the Credentials provider, an API route
 * that takes the provider's access tokens, and a browser: a cookie jar that follows redirects one
 * by one, reads forms and posts them, and stops at the client's redirect URI (never served).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { createHash, randomBytes } from "node:crypto"
import express, { type Express } from "express"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig } from "../../lib/types.js"
import type { OidcProviderOptions } from "../../lib/identity-provider/settings.js"
import { SECRET } from "../helpers/app.js"
import { credentialsProvider, PASSWORD } from "../integration/organizations/support.js"

export { engine, storedUser, PASSWORD, type EngineName } from "../integration/organizations/support.js"

export const API = "https://api.example.test/"
export const CLIENT_SECRET = "web-client-secret-0123456789abcdef0123456789"
export const REDIRECT = "https://client.example.test/callback"

export interface ProviderApp {
  app: Express
  server: Server
  origin: string
  issuer: string
  config: AuthConfig
  events: Array<Record<string, unknown>>
  close(): Promise<void>
}

/** The clients most suites use: a confidential web app, a public one (PKCE), a machine, a CLI (device flow). */
export function standardClients(): NonNullable<OidcProviderOptions["clients"]> {
  return [
    { client_id: "web", client_secret: CLIENT_SECRET, client_name: "Web App", redirect_uris: [REDIRECT], post_logout_redirect_uris: ["https://client.example.test/bye"], grant_types: ["authorization_code", "refresh_token"] },
    { client_id: "spa", token_endpoint_auth_method: "none", client_name: "Single Page", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"] },
    { client_id: "machine", client_secret: CLIENT_SECRET, grant_types: ["client_credentials"], redirect_uris: [], response_types: [] },
    { client_id: "cli", token_endpoint_auth_method: "none", client_name: "Command Line", grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"], redirect_uris: [], response_types: [] },
  ]
}

export async function startProvider(adapter: Adapter, options: OidcProviderOptions = {}, extra: Partial<AuthConfig> = {}): Promise<ProviderApp> {
  const events: Array<Record<string, unknown>> = []
  const config = {
    secret: SECRET,
    providers: [credentialsProvider()],
    logLevel: "silent",
    adapter,
    session: { strategy: "jwt" },
    oidcProvider: { clients: standardClients(), resources: { [API]: { scopes: ["notes:read", "notes:write"] } }, ...options },
    events: { oidcProvider: (message: Record<string, unknown>) => void events.push({ ...message }) },
    ...extra,
  } as AuthConfig
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/api/notes", requireAuth(config, { accessToken: { audience: API, scope: "notes:read" } }), (req, res) => {
    res.json({ auth: req.auth })
  })
  app.get("/api/any", requireAuth(config, { accessToken: true }), (req, res) => {
    res.json({ auth: req.auth })
  })
  const server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    app,
    server,
    origin,
    issuer: `${origin}/auth/oidc`,
    config,
    events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

export interface Page {
  status: number
  url: string
  location?: string
  body: string
  headers: Headers
}

/** A browser: cookies by name (host-only, path ignored but for the provider's own), manual redirects. */
export class Browser {
  readonly jar = new Map<string, string>()

  private cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  private keep(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const at = pair!.indexOf("=")
      const name = pair!.slice(0, at).trim()
      const value = pair!.slice(at + 1).trim()
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute) || /^\s*max-age=0\b/i.test(attribute))
      if (expired || value === "") this.jar.delete(name)
      else this.jar.set(name, value)
    }
  }

  async request(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Page> {
    const response = await fetch(url, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      redirect: "manual",
      headers: { accept: "text/html", cookie: this.cookieHeader(), ...(init.form && { "content-type": "application/x-www-form-urlencoded" }), ...init.headers },
      ...(init.form && { body: new URLSearchParams(init.form).toString() }),
    })
    this.keep(response.headers)
    const location = response.headers.get("location")
    return { status: response.status, url, ...(location && { location: new URL(location, url).href }), body: await response.text(), headers: response.headers }
  }

  /** Follows redirects from `url` until a page, or a redirect outside `origin` (the client's redirect URI): that page. */
  async follow(url: string, origin: string, init: Parameters<Browser["request"]>[1] = {}): Promise<Page> {
    let page = await this.request(url, init)
    for (let hops = 0; page.location && hops < 15; hops++) {
      if (!page.location.startsWith(origin)) return page
      page = await this.request(page.location)
    }
    return page
  }
}

/** A form of the page by its action (or the first), with its fields as a browser would post them (the submit button named). */
export function formOf(html: string, options: { action?: RegExp; button?: { name: string; value: string } } = {}): { action: string; fields: Record<string, string> } {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)]
  const form = forms.find((match) => !options.action || options.action.test(/action="([^"]*)"/.exec(match[1]!)?.[1] ?? ""))
  if (!form) throw new Error(`no form ${options.action ?? ""} in ${html.slice(0, 2000)}`)
  const action = (/action="([^"]*)"/.exec(form[1]!)?.[1] ?? "").replace(/&amp;/g, "&")
  const fields: Record<string, string> = {}
  for (const input of form[2]!.matchAll(/<input\b([^>]*)>/g)) {
    const name = /name="([^"]*)"/.exec(input[1]!)?.[1]
    const value = /value="([^"]*)"/.exec(input[1]!)?.[1] ?? ""
    if (name && !/type="(submit|checkbox)"/.test(input[1]!)) fields[name] = value.replace(/&amp;/g, "&").replace(/&#34;|&quot;/g, '"')
  }
  if (options.button) fields[options.button.name] = options.button.value
  return { action, fields }
}

/** Signs the browser in to the app with the Credentials provider. */
export async function signInBrowser(browser: Browser, origin: string, username: string): Promise<void> {
  const csrf = await browser.request(`${origin}/auth/csrf`, { headers: { accept: "application/json" } })
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const done = await browser.request(`${origin}/auth/callback/credentials`, { form: { csrfToken, username, password: PASSWORD } })
  if (done.status !== 302 || /error=/.test(done.location ?? "")) throw new Error(`sign-in failed: ${done.status} ${done.location}`)
}
