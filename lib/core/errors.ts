/**
 * The base of every error Gatehouse reports: `AuthError` with a stable `type`, and the registry of
 * types. It imports nothing, so the core's errors (named-errors.ts) and each capability's
 * (lib/<capability>/errors.ts) build on it without import cycles; `gatehouse/errors` (lib/errors.ts)
 * re-exports them all.
 *
 * The `type` is the contract: tests, logs and the `error` query parameter use it, while the
 * message is for people. What a browser may see is decided in `error-outcome.ts`.
 */

/**
 * Every error type, by declaration merging (issue #25): the core's are listed here, and a
 * capability's join from its own folder, as its actions join `AuthAction`:
 * `declare module "../core/errors.js" { interface ErrorTypes { TwoFactorCodeInvalid: true } }`.
 */
export interface ErrorTypes {
  /** A plain `AuthError`: an unexpected failure, the spec's generic server-side error. */
  Configuration: true
  AccessDenied: true
  AccountNotLinked: true
  AdapterError: true
  CallbackRouteError: true
  CredentialsSignin: true
  DuplicateConditionalUI: true
  DuplicateProviderId: true
  EmailProofRequired: true
  EmailSignInError: true
  ErrorPageLoop: true
  EventError: true
  ExperimentalFeatureNotEnabled: true
  InvalidCallbackUrl: true
  InvalidCheck: true
  InvalidEndpoints: true
  InvalidOption: true
  InvalidProvider: true
  InvalidRequest: true
  JWTSessionError: true
  MethodNotAllowed: true
  MissingAdapter: true
  MissingAdapterMethods: true
  MissingAuthorize: true
  MissingCSRF: true
  MissingSecret: true
  MissingWebAuthnAutocomplete: true
  OAuthAccountNotLinked: true
  OAuthCallbackError: true
  OAuthCreateAccount: true
  OAuthProfileParseError: true
  OAuthSignInError: true
  PayloadTooLarge: true
  ProviderRedirectRefused: true
  ProviderResponseTooLarge: true
  ProviderTimeout: true
  RateLimited: true
  RecentSignInRequired: true
  RevocationPending: true
  SessionRequired: true
  SessionTokenError: true
  SignOutError: true
  StoreUnavailable: true
  UnknownAction: true
  UnsupportedMediaType: true
  UnsupportedStrategy: true
  UntrustedHost: true
  UnverifiedAccountExists: true
  Verification: true
  WebAuthnVerificationError: true
}

export type ErrorType = keyof ErrorTypes

/** Extra detail kept for the server log. `err` is the underlying error, if any. */
export type ErrorCause = Record<string, unknown> & { err?: unknown }

export interface AuthErrorOptions {
  cause?: ErrorCause | Error
}

export class AuthError extends Error {
  /**
   * The error's stable discriminator. A plain `AuthError` (no subclass) is an unexpected failure
   * and is reported as `Configuration`, the spec's generic server-side error.
   */
  type: ErrorType = "Configuration"
  declare cause?: ErrorCause

  constructor(message?: string, options?: AuthErrorOptions) {
    super(message)
    this.name = new.target.name
    const cause = options?.cause
    if (cause instanceof Error) this.cause = { err: cause }
    else if (cause !== undefined) this.cause = cause
    // The subclass sets `type` through its static field; read it once here.
    const type = (new.target as unknown as { type?: ErrorType }).type
    if (type) this.type = type
    if (!message) this.message = defaultMessage(this.type)
  }
}

function defaultMessage(type: string): string {
  return `${type}: see the server log for details`
}

/** `error` value shown after a failed sign-in; the spec allows only these on the sign-in page. */
export class SignInError extends AuthError {}

export function isAuthError(value: unknown): value is AuthError {
  return value instanceof AuthError
}
