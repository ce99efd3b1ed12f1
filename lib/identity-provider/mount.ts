/**
 * A request for `<base>/<path>/...` handed to `oidc-provider` (a Koa app) as the raw Node request:
 * the path it sees is the part after the segment (its routes: `/token`, `/auth`, `/jwks`,
 * `/.well-known/openid-configuration`, ...), its mount path the part before, so the addresses it
 * writes are under the issuer. On the routes a browser signs in through, who is signed in to the
 * app is read first (the provider's login check follows the app's session, provider.ts). The request's own `url`, `originalUrl` and
 * `baseUrl` are given back when it is done, for middleware after the router.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { RequestContext } from "../core/context.js"
import { signedIn } from "../session/signed-in.js"
import { providerFor } from "./provider.js"
import { rememberRequest } from "./request-state.js"

type Routed = IncomingMessage & { originalUrl?: string; baseUrl?: string }

/** The provider's routes that involve the browser's sign-in (authorization and its resume, the device pages, logout). */
const BROWSER_ROUTES = /^\/(auth|device|session)(\/|$)/

/** Dynamic registration answers scripts on other origins (MCP clients in a browser): it uses no cookies. */
function registrationCors(ctx: RequestContext, raw: { req: IncomingMessage; res: ServerResponse; rest: string }): boolean {
  if (raw.rest !== "/reg" || !ctx.config.oidcProvider?.registration.enabled) return false
  raw.res.setHeader("Access-Control-Allow-Origin", "*")
  if (raw.req.method !== "OPTIONS") return false
  raw.res.statusCode = 204
  raw.res.setHeader("Access-Control-Allow-Methods", "POST")
  raw.res.setHeader("Access-Control-Allow-Headers", "Content-Type, Authorization")
  raw.res.setHeader("Access-Control-Max-Age", "600")
  raw.res.end()
  return true
}

export async function handleProviderRequest(ctx: RequestContext, raw: { req: IncomingMessage; res: ServerResponse; rest: string; mountPath: string }): Promise<void> {
  if (registrationCors(ctx, raw)) return
  const built = await providerFor(ctx)
  // Machine endpoints (token, discovery, JWKS, userinfo, ...) never read the app's session.
  const who = BROWSER_ROUTES.test(raw.rest) ? await signedIn(ctx) : undefined
  const req = raw.req as Routed
  rememberRequest(req, ctx, who === undefined ? undefined : (who?.identity.userId ?? null))
  const query = ctx.request.query.size ? `?${ctx.request.query.toString()}` : ""
  const saved = { url: req.url, originalUrl: req.originalUrl, baseUrl: req.baseUrl }
  const search = (req.url ?? "").includes("?") ? (req.url as string).slice((req.url as string).indexOf("?")) : query
  req.url = `${raw.rest || "/"}${search}`
  // oidc-provider takes its mount path from `baseUrl` when `originalUrl` does not end in `url`.
  req.originalUrl = req.url
  req.baseUrl = raw.mountPath
  try {
    await built.handle(req, raw.res)
  } finally {
    req.url = saved.url
    if (saved.originalUrl === undefined) delete req.originalUrl
    else req.originalUrl = saved.originalUrl
    if (saved.baseUrl === undefined) delete req.baseUrl
    else req.baseUrl = saved.baseUrl
  }
}
