/**
 * `authRouter(config)`: every action under the mount path (`app.use("/auth", authRouter(config))`),
 * or under `basePath` when mounted at the root. Links it writes use `basePath` when configured
 * (or AUTH_URL's path, for apps behind a path-stripping proxy), else the mount path. A mount path
 * other than `basePath` is logged once as `basepath-mount-mismatch` with both paths, by the check
 * every dispatch runs on the first request of its kind (lib/actions/diagnostics-watch.ts).
 */
import { UnknownAction } from "../errors.js"
import type { AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { MOUNTS, parseActionPath, parseAssetPath } from "../core/actions.js"
import type { Mount } from "../core/capability.js"
import { createContext } from "../core/context.js"
import type { AuthAction } from "../types.js"
import type { IncomingMessage, ServerResponse } from "node:http"
import { assetResponse } from "../pages/assets.js"
import { dispatch } from "../core/dispatch.js"
import { publicError } from "../core/error-outcome.js"
import { createLogger } from "../core/logger.js"
import { logUnresolvedError } from "../core/log-kinds.js"
import { json } from "../core/response.js"
import { publicMessage } from "../core/error-messages.js"
import { configSource } from "./config.js"
import { headerOf, originalUrlOf, splitUrl, toInternalRequest } from "./request.js"
import { writeResponse } from "./respond.js"
import { answersNotFoundPage, notFoundPage } from "../pages/not-found.js"
import type { GatehouseRequest, GatehouseResponse, Middleware, NextFunction } from "./types.js"

/** Where the router is mounted: Express's `baseUrl`, or what Connect stripped from `req.url`. */
function mountPath(req: GatehouseRequest, fullPath: string): string {
  if (typeof req.baseUrl === "string") return req.baseUrl
  const own = splitUrl(req.url ?? "/").path
  return fullPath.endsWith(own) ? fullPath.slice(0, fullPath.length - own.length) : ""
}

/** The part of the path after the routing base, or undefined when the request is not ours. */
function actionPath(fullPath: string, routingBase: string): string | undefined {
  const base = routingBase === "/" ? "" : routingBase
  if (!fullPath.startsWith(base)) return undefined
  const rest = fullPath.slice(base.length)
  return rest.startsWith("/") && rest !== "/" ? rest : undefined
}

/** The capability protocol under the path's first segment (`/oidc/token`), with the path after it. */
function mountedAt(config: ResolvedConfig, rest: string): { mount: Mount; segment: string; after: string } | undefined {
  for (const mount of MOUNTS) {
    const segment = mount.segment(config)
    if (!segment) continue
    if (rest === `/${segment}` || rest.startsWith(`/${segment}/`)) return { mount, segment, after: rest.slice(segment.length + 1) }
  }
  return undefined
}

function answerOutsideAction(res: GatehouseResponse, config: ResolvedConfig | undefined, error: unknown, page?: { req: GatehouseRequest; base: string }): void {
  config?.logger.error(error instanceof Error ? error : new Error(String(error)))
  const shown = publicError(error)
  // A browser that asked for no action sees the themed 404 page (issue #26); API clients get JSON.
  if (config && page && answersNotFoundPage(shown.type, page.req.headers.accept)) {
    return writeResponse(res, notFoundPage({ config, request: { header: headerOf(page.req) } }, config.pages.signIn ?? `${page.base === "/" ? "" : page.base}/signin`))
  }
  const [type, status] = shown.page === undefined ? [shown.type, shown.status] : ["Configuration", 500]
  writeResponse(res, json({ error: { type, message: publicMessage(type) } }, status))
}

export function authRouter(config: AuthConfigInput): Middleware {
  const getConfig = configSource(config)

  async function handle(req: GatehouseRequest, res: GatehouseResponse, next: NextFunction): Promise<void> {
    let resolved: ResolvedConfig | undefined
    try {
      resolved = await getConfig(req)
    } catch (error) {
      // A lazy configuration that fails: logged in full, answered as Configuration.
      // A configuration state (MissingSecret...) once per process, without a stack.
      if (logUnresolvedError(error)) createLogger("error", undefined).error(error instanceof Error ? error : new Error(String(error)))
      return answerOutsideAction(res, undefined, error)
    }
    const fullPath = splitUrl(originalUrlOf(req)).path
    const mount = mountPath(req, fullPath)
    const rest = actionPath(fullPath, mount || resolved.basePath)
    if (rest === undefined) return next()
    try {
      const mounted = MOUNTS.length ? mountedAt(resolved, rest) : undefined
      if (mounted) {
        const basePath = resolved.basePathExplicit ? resolved.basePath : mount || resolved.basePath
        const ctx = createContext(resolved, toInternalRequest(req, resolved, { action: mounted.segment as AuthAction, basePath }))
        return await mounted.mount.handle(ctx, { req: req as unknown as IncomingMessage, res: res as unknown as ServerResponse, rest: mounted.after, mountPath: fullPath.slice(0, fullPath.length - mounted.after.length) })
      }
      const asset = req.method === "GET" || req.method === "HEAD" ? parseAssetPath(rest) : undefined
      const served = asset ? assetResponse(asset) : undefined
      if (served) return writeResponse(res, served)
      const parsed = parseActionPath(rest)
      if (!parsed) throw new UnknownAction(`No action at ${fullPath}`)
      const basePath = resolved.basePathExplicit ? resolved.basePath : mount || resolved.basePath
      const request = toInternalRequest(req, resolved, { ...parsed, basePath })
      writeResponse(res, await dispatch(request, resolved))
    } catch (error) {
      // Only errors raised before an action ran reach here (unknown path, malformed host).
      answerOutsideAction(res, resolved, error, { req, base: resolved.basePathExplicit ? resolved.basePath : mount || resolved.basePath })
    }
  }

  return function gatehouseRouter(req, res, next) {
    handle(req, res, next).catch(next)
  }
}
