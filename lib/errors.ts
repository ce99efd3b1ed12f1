/**
 * Every failure Gatehouse can report is an `AuthError` with a stable `type`.
 *
 * The `type` is the contract: tests, logs and the `error` query parameter use it, while the
 * message is for people. What a browser may see is decided in `core/error-outcome.ts`; this file
 * only declares the classes, so importing `gatehouse/errors` pulls in nothing else. It is one file
 * past 300 lines on purpose: declarations only (a few lines per class), one list that the README's
 * error reference is checked against, and one import for apps that test `instanceof`.
 */

/** The complete list of error types. */
export const ERROR_TYPES = [
  "AccessDenied",
  "AccountNotLinked",
  "AccountPageUnavailable",
  "AdapterError",
  "BreachedPassword",
  "CallbackRouteError",
  "Configuration",
  "CredentialsSignin",
  "DuplicateConditionalUI",
  "DuplicateProviderId",
  "EmailCodeExpired",
  "EmailCodeInvalid",
  "EmailCodeLocked",
  "EmailCodeNotBound",
  "EmailNotVerified",
  "EmailProofRequired",
  "EmailSignInError",
  "ErrorPageLoop",
  "EventError",
  "ExperimentalFeatureNotEnabled",
  "InvalidCallbackUrl",
  "InvalidCheck",
  "InvalidEndpoints",
  "InvalidLogoutToken",
  "InvalidOption",
  "InvalidPasskeyName",
  "InvalidProvider",
  "InvalidRequest",
  "JWTSessionError",
  "LastSignInMethod",
  "MethodNotAllowed",
  "MissingAdapter",
  "MissingAdapterMethods",
  "MissingAuthorize",
  "MissingCSRF",
  "MissingSecret",
  "MissingWebAuthnAutocomplete",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "OAuthCreateAccount",
  "OAuthProfileParseError",
  "OAuthSignInError",
  "PasswordLinkInvalid",
  "PasswordLinkSuperseded",
  "PasswordTooLong",
  "PayloadTooLarge",
  "ProviderRedirectRefused",
  "ProviderResponseTooLarge",
  "ProviderTimeout",
  "ProviderTokenMissing",
  "RateLimited",
  "RecentSignInRequired",
  "RecoveryCodeUsed",
  "RefreshTokenError",
  "RevocationPending",
  "SessionNotFound",
  "SessionRequired",
  "SessionTokenError",
  "SignInMethodNotFound",
  "SignOutError",
  "StoreUnavailable",
  "TokenRefreshFailed",
  "TwoFactorCodeInvalid",
  "TwoFactorCodeReplayed",
  "TwoFactorExpired",
  "UnknownAction",
  "UnsupportedMediaType",
  "UnsupportedStrategy",
  "UntrustedHost",
  "UnverifiedAccountExists",
  "Verification",
  "WeakPassword",
  "WebAuthnVerificationError",
  "WrongCurrentPassword",
] as const

export type ErrorType = (typeof ERROR_TYPES)[number]

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

/**
 * Too many attempts of one sign-in method from one client address or for one identifier: the
 * attempt was not made. `retryAfter` is in seconds (the `Retry-After` header).
 */
export class RateLimited extends AuthError {
  static type = "RateLimited" as const
  retryAfter: number

  /** `retryAfter` defaults to 1 second. */
  constructor(message?: string, options?: AuthErrorOptions & { retryAfter?: number }) {
    super(message, options)
    this.retryAfter = Math.max(1, Math.ceil(options?.retryAfter ?? 1))
  }
}

/** `authorize` of a credentials provider refused the user (or returned null). */
export class CredentialsSignin extends SignInError {
  static type = "CredentialsSignin" as const
  /**
   * Goes into the redirect URL as `code`. Keep it vague: never say which field was wrong.
   * Subclass and set it, or pass `{ code }` in the constructor options.
   */
  code = "credentials"

  constructor(message?: string, options?: AuthErrorOptions & { code?: string }) {
    super(message ?? "Sign-in with credentials failed", options)
    if (options?.code) this.code = options.code
  }
}

export class AccessDenied extends AuthError {
  static type = "AccessDenied" as const
}
export class AdapterError extends AuthError {
  static type = "AdapterError" as const
}
/** The account page or one of its actions, in a configuration without an adapter (no users to manage). */
export class AccountPageUnavailable extends AuthError {
  static type = "AccountPageUnavailable" as const
}
/** Removing the user's last way to sign in (they would be locked out). */
export class LastSignInMethod extends AuthError {
  static type = "LastSignInMethod" as const
}
/** Renaming a passkey: the name, trimmed, must be 1 to 64 characters without control characters. */
export class InvalidPasskeyName extends AuthError {
  static type = "InvalidPasskeyName" as const
}
/** An account or passkey id that is not one of the signed-in user's (nothing said about others'). */
export class SignInMethodNotFound extends AuthError {
  static type = "SignInMethodNotFound" as const
}
/** Deleting the account needs a recent sign-in (10 minutes): the person signs in again first. */
export class RecentSignInRequired extends SignInError {
  static type = "RecentSignInRequired" as const
}
/**
 * The shared state store (Redis) is unreachable for something that must hold across processes:
 * a passkey challenge's single use. Refused (503) rather than checked in one process's memory.
 */
export class StoreUnavailable extends AuthError {
  static type = "StoreUnavailable" as const
}
/**
 * The shared store (Redis, or the database behind the adapter store) did not take a revocation:
 * this process refuses the sessions at once and writes it when the store answers, but it is not
 * yet durable, so the action ("sign out everywhere else", `revokeUserSessions`) is not confirmed (503).
 */
export class RevocationPending extends AuthError {
  static type = "RevocationPending" as const
}
export class CallbackRouteError extends AuthError {
  static type = "CallbackRouteError" as const
}
export class ErrorPageLoop extends AuthError {
  static type = "ErrorPageLoop" as const
}
export class EventError extends AuthError {
  static type = "EventError" as const
}
export class InvalidCallbackUrl extends AuthError {
  static type = "InvalidCallbackUrl" as const
}
export class InvalidEndpoints extends AuthError {
  static type = "InvalidEndpoints" as const
}
export class InvalidCheck extends AuthError {
  static type = "InvalidCheck" as const
}
export class JWTSessionError extends AuthError {
  static type = "JWTSessionError" as const
}
export class MissingAdapter extends AuthError {
  static type = "MissingAdapter" as const
}
export class MissingAdapterMethods extends AuthError {
  static type = "MissingAdapterMethods" as const
}
export class MissingAuthorize extends AuthError {
  static type = "MissingAuthorize" as const
}
/** No secret configured where one is required (always in production). */
export class MissingSecretError extends AuthError {
  static type = "MissingSecret" as const
}
/** Alias kept for code written against Auth.js, whose class has this name. */
export const MissingSecret = MissingSecretError
export class OAuthAccountNotLinked extends SignInError {
  static type = "OAuthAccountNotLinked" as const
}
export class OAuthCallbackError extends SignInError {
  static type = "OAuthCallbackError" as const
}
/** The stored user for a new OAuth account could not be created (the adapter failed). */
export class OAuthCreateAccount extends SignInError {
  static type = "OAuthCreateAccount" as const
}
export class OAuthProfileParseError extends AuthError {
  static type = "OAuthProfileParseError" as const
}
export class SessionTokenError extends AuthError {
  static type = "SessionTokenError" as const
}
export class OAuthSignInError extends SignInError {
  static type = "OAuthSignInError" as const
}
export class EmailSignInError extends SignInError {
  static type = "EmailSignInError" as const
}
/** A one-time email code that does not match the one sent to this browser (tries remain). */
export class EmailCodeInvalid extends SignInError {
  static type = "EmailCodeInvalid" as const
}
/** A one-time email code past its lifetime, or whose sign-in already ended (its link was used). */
export class EmailCodeExpired extends SignInError {
  static type = "EmailCodeExpired" as const
}
/** Too many wrong codes: the code and its link are dead; a new email is needed. */
export class EmailCodeLocked extends SignInError {
  static type = "EmailCodeLocked" as const
}
/** A code typed in a browser that did not ask for it (no valid code cookie). */
export class EmailCodeNotBound extends SignInError {
  static type = "EmailCodeNotBound" as const
}
export class SignOutError extends AuthError {
  static type = "SignOutError" as const
}
export class UnknownAction extends AuthError {
  static type = "UnknownAction" as const
}
export class UnsupportedStrategy extends AuthError {
  static type = "UnsupportedStrategy" as const
}
export class InvalidProvider extends AuthError {
  static type = "InvalidProvider" as const
}
export class UntrustedHost extends AuthError {
  static type = "UntrustedHost" as const
}
export class Verification extends AuthError {
  static type = "Verification" as const
}
/** A state-changing POST without a valid double-submit token, or from another site. */
export class MissingCSRF extends SignInError {
  static type = "MissingCSRF" as const
}
export class DuplicateConditionalUI extends AuthError {
  static type = "DuplicateConditionalUI" as const
}
export class MissingWebAuthnAutocomplete extends AuthError {
  static type = "MissingWebAuthnAutocomplete" as const
}
export class WebAuthnVerificationError extends AuthError {
  static type = "WebAuthnVerificationError" as const
}
export class AccountNotLinked extends SignInError {
  static type = "AccountNotLinked" as const
}
export class ExperimentalFeatureNotEnabled extends AuthError {
  static type = "ExperimentalFeatureNotEnabled" as const
}
/** Two providers share an id. */
export class DuplicateProviderId extends AuthError {
  static type = "DuplicateProviderId" as const
}
/** A configuration option has a value Gatehouse cannot use; the message names the option. */
/**
 * A sign-in proved an address, and a stored user with that address, set up without proving it,
 * has other ways to sign in: refused (`accountLinking.unverifiedEmail: "refuse"`, or an adapter
 * that cannot remove them). README, "Account linking and email trust".
 */
export class UnverifiedAccountExists extends SignInError {
  static type = "UnverifiedAccountExists" as const
}
export class InvalidOption extends AuthError {
  static type = "InvalidOption" as const
}
/** The request could not be understood (malformed body, bad host header, wrong field type). */
export class InvalidRequest extends AuthError {
  static type = "InvalidRequest" as const
}
/** The request body is over the size or parameter limit. */
export class PayloadTooLarge extends AuthError {
  static type = "PayloadTooLarge" as const
}
/** A provider's answer was longer than its `outbound.maxResponseSize`: reading stopped there. */
export class ProviderResponseTooLarge extends AuthError {
  static type = "ProviderResponseTooLarge" as const
}
/** A call to a provider did not connect within `outbound.connectTimeout` or end within `outbound.timeout`. */
export class ProviderTimeout extends AuthError {
  static type = "ProviderTimeout" as const
}
/** A provider redirected to a private, loopback or link-local address its configuration does not name. */
export class ProviderRedirectRefused extends AuthError {
  static type = "ProviderRedirectRefused" as const
}
/** The request body is not `application/x-www-form-urlencoded` or JSON in UTF-8. */
export class UnsupportedMediaType extends AuthError {
  static type = "UnsupportedMediaType" as const
}
/** The action exists but not for this HTTP method. */
export class MethodNotAllowed extends AuthError {
  static type = "MethodNotAllowed" as const
  /** The methods the action accepts, for the `Allow` header. */
  allow?: string

  constructor(message?: string, options?: AuthErrorOptions & { allow?: string }) {
    super(message, options)
    this.allow = options?.allow
  }
}
/**
 * A session id given to revoke is not one of the signed-in user's live sessions (unknown, already
 * ended, or another user's: the answer is the same, so it reveals nothing).
 */
export class SessionNotFound extends AuthError {
  static type = "SessionNotFound" as const
}
/** A protected resource was requested without a session. */
export class SessionRequired extends AuthError {
  static type = "SessionRequired" as const
}

/** The provider refused the refresh token (`invalid_grant`: revoked, expired, or used): the user must sign in with it again. */
export class RefreshTokenError extends AuthError {
  static type = "RefreshTokenError" as const
}
/** Refreshing a provider's access token failed: unreachable twice (nothing sent), or a request that may have reached the provider got no usable answer (not resent at once). */
export class TokenRefreshFailed extends AuthError {
  static type = "TokenRefreshFailed" as const
}
/** `getAccessToken`: the signed-in user has no stored access token for that provider (not linked, or signed in another way). */
export class ProviderTokenMissing extends AuthError {
  static type = "ProviderTokenMissing" as const
}
/** A back-channel logout request whose `logout_token` is missing or fails validation. */
export class InvalidLogoutToken extends AuthError {
  static type = "InvalidLogoutToken" as const
}

export function isAuthError(value: unknown): value is AuthError {
  return value instanceof AuthError
}

/** Password accounts (`gatehouse/providers/password`): a new password shorter than the minimum, or one of the most common passwords. */
export class WeakPassword extends AuthError {
  static type = "WeakPassword" as const
}
/** Password accounts: a password longer than 256 characters (refused before hashing). */
export class PasswordTooLong extends AuthError {
  static type = "PasswordTooLong" as const
}
/** Password accounts: the breached-password check found the new password in a breach. */
export class BreachedPassword extends AuthError {
  static type = "BreachedPassword" as const
}
/** Password accounts: a verification or reset link that was used already, expired, or never existed. */
export class PasswordLinkInvalid extends AuthError {
  static type = "PasswordLinkInvalid" as const
}
/**
 * Password accounts: a sign-up confirmation link whose user's address was proved another way since
 * the link was sent (a magic link, a provider, a reset link): the password typed at sign-up is not
 * linked (issue #24).
 */
export class PasswordLinkSuperseded extends AuthError {
  static type = "PasswordLinkSuperseded" as const
}
/**
 * Passkeys: with an email provider configured, a passkey for a new address is created only after
 * the address is proved (the magic link, then `passkey-setup`); a registration for a new user
 * without a session is refused (issue #24).
 */
export class EmailProofRequired extends SignInError {
  static type = "EmailProofRequired" as const
}
/** Password accounts: changing the password, the current password given was not right. */
export class WrongCurrentPassword extends AuthError {
  static type = "WrongCurrentPassword" as const
}
/** Password accounts: the right password, but the address was never confirmed (`requireVerifiedEmail`). */
export class EmailNotVerified extends SignInError {
  static type = "EmailNotVerified" as const
}
/** Two-factor sign-in (issue #16): the code typed is not the current one (nor a recovery code of the user). */
export class TwoFactorCodeInvalid extends SignInError {
  static type = "TwoFactorCodeInvalid" as const
}
/** Two-factor sign-in: this code was accepted already in its 30-second window (a code works once). */
export class TwoFactorCodeReplayed extends SignInError {
  static type = "TwoFactorCodeReplayed" as const
}
/** Two-factor sign-in: the pending sign-in (10 minutes after the first factor) expired or is missing. */
export class TwoFactorExpired extends SignInError {
  static type = "TwoFactorExpired" as const
}
/** Two-factor sign-in: this recovery code was used before (each works once). */
export class RecoveryCodeUsed extends SignInError {
  static type = "RecoveryCodeUsed" as const
}
