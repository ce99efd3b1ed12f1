/**
 * A browser's answer for a path that is no action, an action that is off, or a provider that does
 * not exist (issue #26): the themed error page, "Page not found" (404), with the way to the sign-in
 * page, in the request's language. Only a request that accepts HTML gets it: API clients (JSON, or
 * no `Accept` at all) keep the JSON error `{ error: { type, message } }` with the same status.
 */
import type { ResponseInternal } from "../types.js"
import { notFoundModel } from "./error.js"
import { pageResponse, type PageContext } from "./page.js"

/** The error types answered with this page. */
const NOT_FOUND_TYPES: ReadonlySet<string> = new Set(["UnknownAction", "InvalidProvider"])

/** A browser navigation (it accepts text/html); `fetch` and API clients ask for JSON or anything. */
export function wantsHtmlPage(accept: string | undefined): boolean {
  return typeof accept === "string" && accept.includes("text/html")
}

/** Whether an error of `type` for a request that accepts `accept` is answered with the page. */
export function answersNotFoundPage(type: string, accept: string | undefined): boolean {
  return NOT_FOUND_TYPES.has(type) && wantsHtmlPage(accept)
}

/** The page; `signIn` is the sign-in page's URL (absolute, or a path on the site). */
export function notFoundPage(ctx: PageContext, signIn: string): ResponseInternal {
  const model = notFoundModel(signIn)
  return pageResponse(ctx, "error", model.heading, model, 404)
}
