/**
 * The identity provider's metadata where clients look for it outside the router (issue #32), for
 * MCP clients above all: middleware the app mounts at its root.
 * - `oauthMetadata(config)`: the authorization server metadata (RFC 8414) at
 *   `/.well-known/oauth-authorization-server<issuer path>` and, as OpenID Connect Discovery read
 *   the RFC 8414 way, `/.well-known/openid-configuration<issuer path>` (the MCP specification's
 *   discovery order): the provider's own discovery document, answered in process by the provider
 *   (mount.ts), the same as `<issuer>/.well-known/openid-configuration`.
 * - `protectedResourceMetadata(config, { resource, scopes })`: an API's protected resource
 *   metadata (RFC 9728) at `/.well-known/oauth-protected-resource<resource path>`, naming the
 *   provider as its authorization server; `requireAuth({ accessToken: { resourceMetadata } })`
 *   points clients at it.
 * Both answer GET and HEAD (and CORS preflights: browser-based clients read them); anything else
 * goes to the next middleware. The issuer path is `<basePath>/<oidcProvider.path>` (`/auth/oidc`):
 * the router must be mounted at `basePath`.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AuthAction, AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { createContext, type RequestContext } from "../core/context.js"
import { json } from "../core/response.js"
import { InvalidOption } from "../errors.js"
import { configSource } from "../express/config.js"
import { originalUrlOf, splitUrl, toInternalRequest } from "../express/request.js"
import { writeResponse } from "../express/respond.js"
import type { GatehouseRequest, GatehouseResponse, Middleware, NextFunction } from "../express/types.js"
import type * as MountModule from "./mount.js"

const AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server"
const OPENID_CONFIGURATION = "/.well-known/openid-configuration"
const PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource"

/** Public documents: any site may read them (browser-based MCP clients do, with their protocol header). */
const CORS = { "Access-Control-Allow-Origin": "*" }
const PREFLIGHT = { ...CORS, "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS", "Access-Control-Allow-Headers": "Accept, MCP-Protocol-Version", "Access-Control-Max-Age": "86400" }

/** `oauthMetadata`'s options (none yet: the issuer follows the configuration). */
export type OAuthMetadataOptions = Record<string, never>

export interface ProtectedResourceMetadataOptions {
  /** The resource indicator: one of `oidcProvider.resources` (`https://app.example.com/mcp`). Default: `<origin><path>` of the request. */
  resource?: string
  /** The scopes the resource takes (default: the configured resource's). */
  scopes?: readonly string[]
  /** The resource's path, after `/.well-known/oauth-protected-resource` (default: `resource`'s path). */
  path?: string
  /** `resource_name`, for people (RFC 9728). */
  name?: string
}

function requestPath(req: GatehouseRequest): string {
  return splitUrl(originalUrlOf(req)).path
}

function preflight(res: GatehouseResponse): void {
  res.statusCode = 204
  for (const [name, value] of Object.entries(PREFLIGHT)) res.setHeader(name, value)
  res.end()
}

function handles(req: GatehouseRequest): "serve" | "preflight" | undefined {
  if (req.method === "GET" || req.method === "HEAD") return "serve"
  return req.method === "OPTIONS" ? "preflight" : undefined
}

function contextOf(req: GatehouseRequest, config: ResolvedConfig): RequestContext {
  const segment = config.oidcProvider!.path
  return createContext(config, toInternalRequest(req, config, { action: segment as AuthAction, basePath: config.basePath }))
}

function issuerPath(config: ResolvedConfig): string {
  return `${config.basePath === "/" ? "" : config.basePath}/${config.oidcProvider!.path}`
}

let mount: Promise<typeof MountModule> | undefined

/**
 * RFC 8414 authorization server metadata for the app's identity provider:
 * `app.use(oauthMetadata(config))` at the app's root.
 */
export function oauthMetadata(config: AuthConfigInput, options: OAuthMetadataOptions = {}): Middleware {
  if (options === null || typeof options !== "object" || Object.keys(options).length) throw new InvalidOption("oauthMetadata: takes no options yet")
  const getConfig = configSource(config)

  async function handle(req: GatehouseRequest, res: GatehouseResponse, next: NextFunction): Promise<void> {
    const how = handles(req)
    if (!how) return next()
    const resolved = await getConfig(req)
    if (!resolved.oidcProvider) return next()
    const path = requestPath(req)
    const own = issuerPath(resolved)
    if (path !== `${AUTHORIZATION_SERVER}${own}` && path !== `${OPENID_CONFIGURATION}${own}`) return next()
    if (how === "preflight") return preflight(res)
    mount ??= import("./mount.js").catch((error: unknown) => {
      mount = undefined
      throw error
    })
    const { handleProviderRequest } = await mount
    // The provider's discovery route, as if asked at `<issuer>/.well-known/openid-configuration`.
    await handleProviderRequest(contextOf(req, resolved), { req: req as IncomingMessage, res: res as ServerResponse, rest: OPENID_CONFIGURATION, mountPath: own })
  }

  return function gatehouseOAuthMetadata(req, res, next) {
    handle(req, res, next).catch(next)
  }
}

/**
 * RFC 9728 protected resource metadata for one of the app's APIs:
 * `app.use(protectedResourceMetadata(config, { resource: "https://app.example.com/mcp" }))`.
 */
export function protectedResourceMetadata(config: AuthConfigInput, options: ProtectedResourceMetadataOptions): Middleware {
  if (!options || typeof options !== "object") throw new InvalidOption("protectedResourceMetadata: options { resource, scopes, path } are required")
  const { resource, scopes, name } = options
  if (resource !== undefined && (typeof resource !== "string" || !URL.canParse(resource))) throw new InvalidOption("protectedResourceMetadata: resource must be an absolute URL")
  const path = options.path ?? (resource === undefined ? undefined : new URL(resource).pathname)
  if (typeof path !== "string" || !path.startsWith("/")) throw new InvalidOption("protectedResourceMetadata: path must start with / (or give resource)")
  if (scopes !== undefined && (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string" || !scope || /\s/.test(scope)))) {
    throw new InvalidOption("protectedResourceMetadata: scopes must be a list of scope names")
  }
  const wellKnown = `${PROTECTED_RESOURCE}${path === "/" ? "" : path.replace(/\/+$/, "")}`
  const getConfig = configSource(config)

  async function handle(req: GatehouseRequest, res: GatehouseResponse, next: NextFunction): Promise<void> {
    const how = handles(req)
    if (!how || requestPath(req) !== wellKnown) return next()
    const resolved = await getConfig(req)
    const provider = resolved.oidcProvider
    if (!provider) return next()
    if (how === "preflight") return preflight(res)
    const ctx = contextOf(req, resolved)
    const indicator = resource ?? `${ctx.request.origin}${path}`
    const body = {
      resource: indicator,
      // The issuer, as provider.ts `issuerOf` makes it (that module stays unloaded until the provider is used).
      authorization_servers: [`${ctx.baseUrl}/${provider.path}`],
      scopes_supported: [...(scopes ?? provider.resources.get(indicator)?.scopes ?? [])],
      bearer_methods_supported: ["header"],
      ...(name && { resource_name: name }),
    }
    writeResponse(res, json(body, 200, { ...CORS, "Cache-Control": "public, max-age=300" }))
  }

  return function gatehouseProtectedResourceMetadata(req, res, next) {
    handle(req, res, next).catch(next)
  }
}
