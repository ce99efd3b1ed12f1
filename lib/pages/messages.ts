/**
 * What each `error` value means to a person, in the core's words. The `error` query parameter only
 * ever selects a text of the catalogs; its raw value is never shown. The sign-in page explains a
 * value when its catalog has a text `signin.error.<value>` (the core's, and each capability's in
 * its texts); the error page explains the values of a table, each with its status: the core's
 * here, joined by each capability's outcome on the error page (lib/core/error-messages.ts, which
 * also gives JSON error bodies their message).
 */
import type { MessageKey, Messages } from "../i18n/en.js"

export interface PageMessage {
  heading: string
  message: string
}

/** The core's values the error page explains, with their status; anything else gets the default page (200). */
export const ERROR_PAGE_STATUS: Readonly<Record<string, number>> = Object.freeze({ Configuration: 500, AccessDenied: 403, Verification: 403, AdapterError: 503, StoreUnavailable: 503, ProviderRedirectRefused: 502, ProviderResponseTooLarge: 502, ProviderTimeout: 504 })

/** `table[key]` only for the table's own entries: `constructor` or `__proto__` select nothing. */
export function own<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined
}

/** The sign-in page's text for an `error` value, in catalog `t`: its `signin.error.<value>`, else the default one. */
export function signinErrorText(t: Messages, error: string): string {
  return own<string>(t, `signin.error.${error}`) ?? t["signin.error.default"]
}

/** The error page's key for an `error` value: one of `pages`' (default: the core's), or `default`. */
export function errorPageKey(error: string | undefined, pages: Readonly<Record<string, number>> = ERROR_PAGE_STATUS): string {
  return own(pages, error) === undefined ? "default" : (error as string)
}

/** The error page's heading and message for a key from `errorPageKey`, in catalog `t`. */
export function errorPageText(t: Messages, key: string): PageMessage {
  return { heading: t[`error.${key}.heading` as MessageKey], message: t[`error.${key}.message` as MessageKey] }
}

/** Short, client-safe text for the JSON bodies of the core's errors about the request itself, by type. */
export const PROTOCOL_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  InvalidRequest: "The request could not be understood.",
  PayloadTooLarge: "The request body is too large.",
  UnsupportedMediaType: "Send the body as application/x-www-form-urlencoded or application/json in UTF-8.",
  MethodNotAllowed: "This action does not accept that HTTP method.",
  UnknownAction: "There is no such action.",
  InvalidProvider: "There is no such sign-in provider.",
  SessionRequired: "Sign in to use this resource.",
})
