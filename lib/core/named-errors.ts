/**
 * The core's named errors: those thrown by the pipeline, the session, providers, outbound calls,
 * the shared store and the account-linking rules, or by more than one capability. Their types are
 * listed in the registry of errors.ts; a capability's own errors live in its folder
 * (lib/<capability>/errors.ts). `gatehouse/errors` (lib/errors.ts) re-exports them all.
 */
import { AuthError, SignInError, type AuthErrorOptions } from "./errors.js"

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
/**
 * A sign-in proved an address, and a stored user with that address, set up without proving it,
 * has other ways to sign in: refused (`accountLinking.unverifiedEmail: "refuse"`, or an adapter
 * that cannot remove them). README, "Account linking and email trust".
 */
export class UnverifiedAccountExists extends SignInError {
  static type = "UnverifiedAccountExists" as const
}
/** A configuration option has a value Gatehouse cannot use; the message names the option. */
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
/** A protected resource was requested without a session. */
export class SessionRequired extends AuthError {
  static type = "SessionRequired" as const
}
/**
 * Passkeys: with an email provider configured, a passkey for a new address is created only after
 * the address is proved (the magic link, then `passkey-setup`); a registration for a new user
 * without a session is refused (issue #24).
 */
export class EmailProofRequired extends SignInError {
  static type = "EmailProofRequired" as const
}
