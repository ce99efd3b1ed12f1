/**
 * The named errors of the identity provider (issue #32). Their types join `ErrorType` here
 * (declaration merging, lib/core/errors.ts), their outcomes are on the capability object
 * (capability.ts), and `gatehouse/errors` re-exports them. Errors of the OAuth protocol itself
 * (`invalid_grant`, `invalid_client`, ...) are answered by `oidc-provider` as the specifications
 * say, not as these.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    IdentityProviderUnavailable: true
    InteractionNotFound: true
    AccessTokenInvalid: true
    AccessTokenRequired: true
    OidcClientNotFound: true
  }
}

/** The `oidcProvider` option is off, `oidc-provider` is not installed, or the request did not come through Node's HTTP server. */
export class IdentityProviderUnavailable extends AuthError {
  static type = "IdentityProviderUnavailable" as const
}
/** The sign-in or consent step of an authorization request is unknown, expired, or belongs to another browser. */
export class InteractionNotFound extends AuthError {
  static type = "InteractionNotFound" as const
}
/** The bearer access token is malformed, not ours, expired, for another audience, or lacks a scope the route needs. */
export class AccessTokenInvalid extends AuthError {
  static type = "AccessTokenInvalid" as const
}
/** The route takes only access tokens (`requireAuth({ accessToken: { only: true } })`), and the request has none. */
export class AccessTokenRequired extends AuthError {
  static type = "AccessTokenRequired" as const
}
/** No client of the identity provider has this id (or it is declared in the configuration and cannot be changed). */
export class OidcClientNotFound extends AuthError {
  static type = "OidcClientNotFound" as const
}
