/** Web `Request` in, web `Response` out: the two ends of `Auth()`. */
import { parse as parseCookies } from "cookie"
import { UnknownAction } from "../errors.js"
import type { ResponseInternal } from "../types.js"
import type { ResolvedConfig } from "./config/resolved.js"
import { readWebBody } from "./body.js"
import { parseActionPath, parseAssetPath } from "./actions.js"

/** The path after the base path, or undefined when the request is not under it. */
function pathUnderBase(url: URL, config: ResolvedConfig): string | undefined {
  const base = config.basePath === "/" ? "" : config.basePath
  return url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : undefined
}

/** The asset file a GET asks for (`<basePath>/assets/<file>`), if any. */
export function requestedAsset(request: Request, config: ResolvedConfig): string | undefined {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined
  const path = pathUnderBase(new URL(request.url), config)
  return path === undefined ? undefined : parseAssetPath(path)
}
import type { InternalRequest } from "./request.js"
import { COMMON_HEADERS, JSON_CONTENT_TYPE, serializeJson } from "./response.js"
import { setCookieLines } from "./set-cookie.js"
import { siteOf, TRUSTED } from "./site.js"

export function toInternalRequest(request: Request, config: ResolvedConfig): InternalRequest {
  const url = new URL(request.url)
  const header = (name: string) => request.headers.get(name) ?? (name === "host" ? url.host : undefined)
  const site = siteOf(config.authUrl, { protocol: url.protocol === "https:" ? "https" : "http", header, trustForwarded: TRUSTED })
  const path = pathUnderBase(url, config)
  const parsed = path === undefined ? null : parseActionPath(path)
  if (!parsed) throw new UnknownAction(`No action at ${url.pathname}`)
  return {
    method: request.method.toUpperCase(),
    action: parsed.action,
    providerId: parsed.providerId,
    origin: site.origin,
    basePath: config.basePath,
    secure: site.secure,
    query: url.searchParams,
    body: undefined,
    readBody: () => readWebBody(request),
    cookies: parseCookies(request.headers.get("cookie") ?? ""),
    header,
    trustForwarded: TRUSTED,
    source: request,
    webRequest: () => request,
  }
}

export function toWebResponse(response: ResponseInternal): Response {
  const headers = new Headers(COMMON_HEADERS)
  for (const [name, value] of Object.entries(response.headers ?? {})) headers.set(name, value)
  for (const line of setCookieLines(response.cookies)) headers.append("Set-Cookie", line)
  if (response.redirect) {
    headers.set("Location", response.redirect)
    return new Response(null, { status: response.status ?? 302, headers })
  }
  // No body may go with 204 or 304 (SCIM's DELETE answers 204).
  if (response.status === 204 || response.status === 304) return new Response(null, { status: response.status, headers })
  const contentType = headers.get("Content-Type")
  if (contentType && !contentType.startsWith("application/json") && typeof response.body === "string") {
    return new Response(response.body, { status: response.status ?? 200, headers })
  }
  headers.set("Content-Type", contentType ?? JSON_CONTENT_TYPE)
  return new Response(serializeJson(response.body ?? null), { status: response.status ?? 200, headers })
}
