/**
 * A configuration source for the middleware. A static configuration is resolved when the
 * middleware is built, so a mistake throws at start-up; a lazy one (a function of the request) is
 * resolved per request, cached by the identity of the object it returns.
 */
import type { AuthConfig, AuthConfigInput, AuthRequestLike } from "../types.js"
import { resolveConfig, type ResolvedConfig } from "../core/config/resolve.js"
import type { GatehouseRequest } from "./types.js"

export type ConfigSource = (req: GatehouseRequest) => ResolvedConfig | Promise<ResolvedConfig>

export function configSource(input: AuthConfigInput): ConfigSource {
  if (typeof input === "function") {
    return async (req) => resolveConfig((await input(req as unknown as AuthRequestLike)) as AuthConfig)
  }
  const resolved = resolveConfig(input)
  return () => resolved
}

/** For one-off calls (`getSession(req, config)`): resolve from either form. */
export async function resolveFor(req: GatehouseRequest, input: AuthConfigInput): Promise<ResolvedConfig> {
  return typeof input === "function" ? resolveConfig((await input(req as unknown as AuthRequestLike)) as AuthConfig) : resolveConfig(input)
}
