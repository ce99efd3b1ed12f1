/**
 * What each `error` value means to a person. The `error` query parameter only ever selects an
 * entry of these tables; its raw value is never shown.
 */

export interface PageMessage {
  heading: string
  message: string
}

/** Values the sign-in page explains (the spec's list, plus MissingCSRF). */
export const SIGNIN_ERRORS: Readonly<Record<string, string>> = Object.freeze({
  Signin: "We could not start the sign-in. Please try again, or choose another way to sign in.",
  OAuthSignin: "We could not reach the sign-in service. Please try again, or choose another way to sign in.",
  OAuthCallbackError: "The sign-in service sent back an answer we could not accept. Please try again.",
  OAuthCreateAccount: "We could not create your account with that sign-in service. Please try another way to sign in.",
  EmailCreateAccount: "We could not create your account for that email address. Please try another way to sign in.",
  Callback: "Something went wrong while finishing your sign-in. Please try again.",
  OAuthAccountNotLinked: "This email address is already registered with another sign-in method. Use the method you used first.",
  EmailSignin: "We could not send the sign-in email. Check the address and try again.",
  CredentialsSignin: "Those details did not match. Check them and try again.",
  SessionRequired: "Please sign in to see that page.",
  MissingCSRF: "The form had expired. Please try again.",
  WebAuthnVerificationError: "The passkey could not be verified. Please try again, or use another way to sign in.",
  RateLimited: "Too many attempts. Wait a few minutes, then try again.",
})

export const DEFAULT_SIGNIN_ERROR = "We could not sign you in. Please try again."

/** Values the error page explains; anything else gets `DEFAULT_ERROR_PAGE`. */
export const ERROR_PAGES: Readonly<Record<string, PageMessage & { status: number }>> = Object.freeze({
  Configuration: {
    status: 500,
    heading: "Server error",
    message: "The sign-in service is not set up correctly. The site's logs say more.",
  },
  AccessDenied: {
    status: 403,
    heading: "Access denied",
    message: "You are not allowed to sign in here.",
  },
  Verification: {
    status: 403,
    heading: "This link no longer works",
    message: "Sign-in links can be used once and expire after a while. Ask for a new one.",
  },
  AdapterError: {
    status: 503,
    heading: "Temporarily unavailable",
    message: "Sign-in is unavailable for a moment. Please try again shortly.",
  },
})

export const DEFAULT_ERROR_PAGE: PageMessage & { status: number } = Object.freeze({
  status: 200,
  heading: "Something went wrong",
  message: "We could not complete that request. Please try again.",
})

/** `table[key]` only for the table's own entries: `constructor` or `__proto__` select nothing. */
export function own<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined
}

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
})
