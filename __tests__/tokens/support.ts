/**
 * Harness for the provider-token suites (issue #17): the OAuth harness's IdP configured as the
 * issue asks (short-lived access tokens, rotating refresh tokens, revocation, RP-initiated and
 * back-channel logout), a count of refresh grants the IdP answered, and a `/token` route on the
 * app that calls `getAccessToken`.
 */
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { Express } from "express"
import type { Configuration } from "oidc-provider"
import { getAccessToken } from "../../lib/index.js"
import type { AuthError } from "../../lib/errors.js"
import type { AuthConfig } from "../../lib/types.js"
import type { Site } from "../oauth/support.js"

/** Seconds an access token lives at the IdP. */
export const ACCESS_TOKEN_TTL = 2

export function idpConfiguration(extra: Partial<Configuration> = {}): Partial<Configuration> {
  return {
    ttl: { AccessToken: ACCESS_TOKEN_TTL, IdToken: 3600, RefreshToken: 3600, Grant: 3600, Session: 3600, Interaction: 600 },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      backchannelLogout: { enabled: true },
    },
    ...extra,
  }
}

/** Counts the refresh grants the IdP served (successful or not). */
export function countRefreshes(site: Site): { readonly count: number; readonly refused: number } {
  const counts = { count: 0, refused: 0 }
  site.idp.provider.on("grant.success", (ctx: { oidc: { params?: { grant_type?: unknown } } }) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") counts.count++
  })
  site.idp.provider.on("grant.error", (ctx: { oidc: { params?: { grant_type?: unknown } } }) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") {
      counts.count++
      counts.refused++
    }
  })
  return counts
}

/** GET /token?skew=N on `app`: `{ token }`, or `{ error: <type> }` with 409. */
export function tokenRoute(app: Express, config: AuthConfig, providerId = "idp"): void {
  app.get("/token", (req, res) => {
    const skew = req.query.skew === undefined ? undefined : Number(req.query.skew)
    getAccessToken(req, config, providerId, { skew }).then(
      (token) => res.json({ token }),
      (error: AuthError) => res.status(409).json({ error: error.type ?? error.name, message: error.message }),
    )
  })
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A user's browser at the IdP that keeps its cookies (so the IdP session lives on between visits). */
export function idpBrowser(issuer: string) {
  const jar = new Map<string, string>()
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";")
      const separator = pair.indexOf("=")
      const value = pair.slice(separator + 1)
      if (value) jar.set(pair.slice(0, separator), value)
      else jar.delete(pair.slice(0, separator))
    }
  }
  async function go(url: URL, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), ...(jar.size ? { cookie: cookie() } : {}) } })
    remember(response)
    return response
  }
  return {
    /** Follows redirects from `url` until one leaves the IdP (returns that URL) or a page is shown (returns the response). */
    async follow(url: string, init: RequestInit = {}): Promise<URL | Response> {
      let next = new URL(url)
      let response = await go(next, init)
      for (let hop = 0; hop < 10; hop++) {
        const location = response.headers.get("location")
        if (!location) return response
        next = new URL(location, next)
        if (next.origin !== issuer) return next
        response = await go(next)
      }
      throw new Error("Too many redirects at the IdP")
    },
    /** Confirms the IdP's sign-out page (oidc-provider's end_session form); returns where the IdP sends the browser. */
    async confirmLogout(page: Response): Promise<URL | Response> {
      const html = await page.text()
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1]
      if (!xsrf) throw new Error(`No sign-out form at the IdP: ${html.slice(0, 300)}`)
      return this.follow(`${issuer}/session/end/confirm`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ xsrf, logout: "yes" }).toString() })
    },
    cookies: jar,
  }
}

/**
 * A real HTTP server in front of the IdP's token endpoint (configure the provider with
 * `token: relay.url`, then set `relay.issuer`): it counts the refresh grant requests that reach it and forwards each to the
 * IdP. `mode = "hang"` forwards the request (the IdP acts on it: a rotating refresh token is spent)
 * but never answers; `stop()` closes the port (connections are refused) and `start()` opens the
 * same port again.
 */
export async function tokenRelay() {
  const held: ServerResponse[] = []
  const relay = {
    url: "",
    /** Where requests go: the IdP's issuer (set once the IdP is up). */
    issuer: "",
    refreshes: 0,
    mode: "forward" as "forward" | "hang",
    server: createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8")
        if (new URLSearchParams(body).get("grant_type") === "refresh_token") relay.refreshes++
        const headers: Record<string, string> = {}
        for (const name of ["authorization", "content-type", "accept"]) if (typeof req.headers[name] === "string") headers[name] = req.headers[name]
        const hang = relay.mode === "hang"
        if (hang) held.push(res)
        fetch(`${relay.issuer}/token`, { method: "POST", headers, body }).then(
          async (answer) => {
            if (hang) return
            res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json", "cache-control": "no-store" })
            res.end(Buffer.from(await answer.arrayBuffer()))
          },
          () => res.destroy(),
        )
      })
    }),
    async start(port = 0) {
      relay.server.listen(port, "127.0.0.1")
      await new Promise((listening) => relay.server.once("listening", listening))
      relay.url = `http://127.0.0.1:${(relay.server.address() as AddressInfo).port}/token`
    },
    async stop() {
      relay.server.closeAllConnections()
      await new Promise((closed) => relay.server.close(closed))
    },
    port: () => Number(new URL(relay.url).port),
    async close() {
      for (const res of held.splice(0)) res.destroy()
      if (relay.server.listening) await relay.stop()
    },
  }
  await relay.start()
  return relay
}
