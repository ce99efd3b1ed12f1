/**
 * `GET providers`: the client-safe list of providers, in configuration order: id, name, type and
 * their sign-in and callback URLs, nothing else (no client secrets, no functions).
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { publicProvider } from "../core/config/providers.js"
import { json } from "../core/response.js"

export function providers(ctx: RequestContext): ResponseInternal {
  return json(ctx.config.providers.list.map((provider) => publicProvider(provider, ctx.baseUrl)))
}
