/**
 * The named errors of service tokens (issue #31). Their types join `ErrorType` here (declaration
 * merging, lib/core/errors.ts) and their outcomes are on the capability object (capability.ts).
 * This file imports only the error base, so `gatehouse/service-tokens` (index.ts) stays a module
 * that loads jose and nothing else of Gatehouse.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    ServiceTokenInvalid: true
    ServiceTokenScopeDenied: true
    ServiceTokensUnavailable: true
  }
}

/**
 * `verifyServiceToken` refused a token: malformed, a bad signature, an unknown key, an algorithm
 * other than ES256/EdDSA, another audience or issuer, or expired. The cause says which.
 */
export class ServiceTokenInvalid extends AuthError {
  static type = "ServiceTokenInvalid" as const
}
/** `GET token` asked for a scope the caller does not hold (an API key's scopes, the organization's permissions). */
export class ServiceTokenScopeDenied extends AuthError {
  static type = "ServiceTokenScopeDenied" as const
}
/** `GET token` or `GET jwks` with the `serviceTokens` option off. */
export class ServiceTokensUnavailable extends AuthError {
  static type = "ServiceTokensUnavailable" as const
}
