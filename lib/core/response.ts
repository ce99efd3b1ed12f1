/**
 * Builders for `ResponseInternal`, and the headers every response Gatehouse writes carries.
 * Integrations add `COMMON_HEADERS` to everything; pages also get `PAGE_HEADERS` and a CSP.
 */
import type { ResponseInternal } from "../types.js"

/** Auth responses are per-user: never cached, never sniffed into another type. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
})

export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "text/html; charset=utf-8",
  "X-Frame-Options": "DENY",
  // Not no-referrer: under it browsers send `Origin: null` on the page's own form POSTs.
  "Referrer-Policy": "same-origin",
})

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8"

export function json<Body>(body: Body, status = 200, headers?: Record<string, string>): ResponseInternal<Body> {
  return { status, body, headers: { "Content-Type": JSON_CONTENT_TYPE, ...headers } }
}

export function html(body: string, csp: string, status = 200): ResponseInternal<string> {
  return { status, body, headers: { ...PAGE_HEADERS, "Content-Security-Policy": csp } }
}

export function redirect(url: string): ResponseInternal {
  return { status: 302, redirect: url }
}

/**
 * JSON safe to embed anywhere: `<`, `>`, `&` and the JS line separators are escaped, so the text
 * can never close a script element or be sniffed as markup.
 */
export function serializeJson(body: unknown): string {
  return (JSON.stringify(body) ?? "null").replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
}
