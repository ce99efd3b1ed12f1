/**
 * Writes a `ResponseInternal` with Node's http API only (so Connect and plain `node:http` work).
 * `Set-Cookie` lines are appended to any the app already set, never replacing them.
 */
import type { ServerResponse } from "node:http"
import type { ResponseInternal } from "../types.js"
import { COMMON_HEADERS, JSON_CONTENT_TYPE, serializeJson } from "../core/response.js"
import { setCookieLines } from "../core/set-cookie.js"

export function appendSetCookie(res: ServerResponse, lines: readonly string[]): void {
  if (!lines.length || res.headersSent) return
  const previous = res.getHeader("Set-Cookie")
  const existing = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)]
  res.setHeader("Set-Cookie", [...existing, ...lines])
}

export function writeResponse(res: ServerResponse, response: ResponseInternal): void {
  if (res.headersSent) return
  res.removeHeader("X-Powered-By")
  for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value)
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value)
  appendSetCookie(res, setCookieLines(response.cookies))
  if (response.redirect) {
    res.statusCode = response.status ?? 302
    res.setHeader("Location", response.redirect)
    res.end()
    return
  }
  res.statusCode = response.status ?? 200
  const contentType = res.getHeader("Content-Type")
  if (typeof contentType === "string" && !contentType.startsWith("application/json") && typeof response.body === "string") {
    res.end(response.body)
    return
  }
  res.setHeader("Content-Type", JSON_CONTENT_TYPE)
  res.end(serializeJson(response.body ?? null))
}

/** Sends a web Response (from an `authorized` callback) through a Node response. */
export async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  if (res.headersSent) return
  res.statusCode = response.status
  const cookies = response.headers.getSetCookie()
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value)
  })
  appendSetCookie(res, cookies)
  res.end(Buffer.from(await response.arrayBuffer()))
}
