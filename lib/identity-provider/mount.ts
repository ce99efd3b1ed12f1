/**
 * A request for `<base>/<path>/...` handed to `oidc-provider` (a Koa app) as the raw Node request:
 * the path it sees is the part after the segment (its routes: `/token`, `/auth`, `/jwks`,
 * `/.well-known/openid-configuration`, ...), its mount path the part before, so the addresses it
 * writes are under the issuer. Who is signed in to the app is read first (the provider's login
 * check follows the app's session, provider.ts). The request's own `url`, `originalUrl` and
 * `baseUrl` are given back when it is done, for middleware after the router.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { RequestContext } from "../core/context.js"
import { signedIn } from "../session/signed-in.js"
import { providerFor } from "./provider.js"
import { rememberRequest } from "./request-state.js"

type Routed = IncomingMessage & { originalUrl?: string; baseUrl?: string }

export async function handleProviderRequest(ctx: RequestContext, raw: { req: IncomingMessage; res: ServerResponse; rest: string; mountPath: string }): Promise<void> {
  const built = await providerFor(ctx)
  const who = await signedIn(ctx)
  const req = raw.req as Routed
  rememberRequest(req, ctx, who?.identity.userId ?? null)
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
