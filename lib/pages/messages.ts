/**
 * What each `error` value means to a person. The `error` query parameter only ever selects an
 * entry of these tables; its raw value is never shown. The texts live in the catalogs
 * (lib/i18n/); the tables here are the English ones, also used for JSON error bodies.
 */
import { ENGLISH as en } from "../i18n/catalogs.js"
import type { MessageKey, Messages } from "../i18n/en.js"

export interface PageMessage {
  heading: string
  message: string
}

/** Values the sign-in page explains (the spec's list, plus MissingCSRF). */
export const SIGNIN_ERROR_TYPES = Object.freeze([
  "Signin",
  "OAuthSignin",
  "OAuthCallbackError",
  "OAuthCreateAccount",
  "EmailCreateAccount",
  "Callback",
  "OAuthAccountNotLinked",
  "EmailSignin",
  "CredentialsSignin",
  "SessionRequired",
  "MissingCSRF",
  "WebAuthnVerificationError",
  "RateLimited",
  "UnverifiedAccountExists",
  "EmailProofRequired",
  "EmailNotVerified",
  "RecentSignInRequired",
  "TwoFactorCodeInvalid",
  "TwoFactorCodeReplayed",
  "TwoFactorExpired",
  "RecoveryCodeUsed",
  "EmailCodeExpired",
  "EmailCodeLocked",
  "EmailCodeNotBound",
] as const)

/** Values the error page explains, with their status; anything else gets the default page (200). */
export const ERROR_PAGE_STATUS: Readonly<Record<string, number>> = Object.freeze({ Configuration: 500, AccessDenied: 403, Verification: 403, AdapterError: 503, StoreUnavailable: 503, RevocationPending: 503, AccountPageUnavailable: 501, ProviderRedirectRefused: 502, ProviderResponseTooLarge: 502, ProviderTimeout: 504 })

/** `table[key]` only for the table's own entries: `constructor` or `__proto__` select nothing. */
export function own<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined
}

/** The sign-in page's text for an `error` value, in catalog `t`. */
export function signinErrorText(t: Messages, error: string): string {
  return own(SIGNIN_ERRORS, error) === undefined ? t["signin.error.default"] : t[`signin.error.${error}` as MessageKey]
}

/** The error page's key for an `error` value: one of ERROR_PAGE_STATUS's, or `default`. */
export function errorPageKey(error: string | undefined): string {
  return own(ERROR_PAGE_STATUS, error) === undefined ? "default" : (error as string)
}

/** The error page's heading and message for a key from `errorPageKey`, in catalog `t`. */
export function errorPageText(t: Messages, key: string): PageMessage {
  return { heading: t[`error.${key}.heading` as MessageKey], message: t[`error.${key}.message` as MessageKey] }
}

export const SIGNIN_ERRORS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(SIGNIN_ERROR_TYPES.map((type) => [type, en[`signin.error.${type}`]])),
)

export const DEFAULT_SIGNIN_ERROR = en["signin.error.default"]

export const ERROR_PAGES: Readonly<Record<string, PageMessage & { status: number }>> = Object.freeze(
  Object.fromEntries(Object.entries(ERROR_PAGE_STATUS).map(([key, status]) => [key, Object.freeze({ status, ...errorPageText(en, key) })])),
)

export const DEFAULT_ERROR_PAGE: PageMessage & { status: number } = Object.freeze({ status: 200, ...errorPageText(en, "default") })

/** Short, client-safe text for JSON error bodies, by the type shown to the client. */
export function publicMessage(type: string): string {
  return own(PROTOCOL_MESSAGES, type) ?? own(SIGNIN_ERRORS, type) ?? own(ERROR_PAGES, type)?.message ?? DEFAULT_ERROR_PAGE.message
}

const PROTOCOL_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  InvalidRequest: "The request could not be understood.",
  PayloadTooLarge: "The request body is too large.",
  UnsupportedMediaType: "Send the body as application/x-www-form-urlencoded or application/json in UTF-8.",
  MethodNotAllowed: "This action does not accept that HTTP method.",
  UnknownAction: "There is no such action.",
  InvalidProvider: "There is no such sign-in provider.",
  SessionRequired: "Sign in to use this resource.",
  SessionNotFound: "There is no such session among yours.",
  LastSignInMethod: "This is your only way to sign in, so it cannot be removed. Add another one first.",
  SignInMethodNotFound: "That sign-in method is not part of your account.",
  InvalidPasskeyName: en["account.error.InvalidPasskeyName"],
  EmailCodeInvalid: en["verify.error.EmailCodeInvalid"],
  WeakPassword: "That password is too short or too common.",
  PasswordTooLong: en["password.error.PasswordTooLong"],
  BreachedPassword: en["password.error.BreachedPassword"],
  PasswordLinkInvalid: en["password.error.PasswordLinkInvalid"],
  WrongCurrentPassword: en["password.error.WrongCurrentPassword"],
})
