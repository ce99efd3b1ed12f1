/**
 * The named errors of enterprise sign-in (issue #28). Their types join `ErrorType` here, their
 * outcomes are on the capability object (capability.ts), and `gatehouse/errors` re-exports them.
 * Every refusal of an identity provider's answer is one of these: a clear page, logged and audited
 * with the connection id, never a 500.
 */
import { AuthError, SignInError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    SsoUnavailable: true
    SsoConnectionNotFound: true
    SsoNotConfigured: true
    SsoRequired: true
    SsoResponseInvalid: true
    SsoReplay: true
    SsoUnsolicited: true
    SsoAccountNotLinked: true
    SsoUserDeactivated: true
    DomainTaken: true
    DomainNotVerified: true
    InvalidSsoConnection: true
  }
}

/** The `sso` option is off, or the adapter cannot store connections. */
export class SsoUnavailable extends AuthError {
  static type = "SsoUnavailable" as const
}
/** No such connection (or it is turned off). */
export class SsoConnectionNotFound extends SignInError {
  static type = "SsoConnectionNotFound" as const
}
/** The address's domain (or the slug) has no organization with a working connection. */
export class SsoNotConfigured extends SignInError {
  static type = "SsoNotConfigured" as const
}
/** The address belongs to an organization that requires its SSO: this way of signing in is refused. */
export class SsoRequired extends SignInError {
  static type = "SsoRequired" as const
}
/** The identity provider's answer failed a check (signature, audience, destination, time, shape, size). */
export class SsoResponseInvalid extends SignInError {
  static type = "SsoResponseInvalid" as const
}
/** The assertion (or the answer to a request) was used before. */
export class SsoReplay extends SignInError {
  static type = "SsoReplay" as const
}
/** An answer no request of ours asked for, while the connection does not accept IdP-initiated sign-in. */
export class SsoUnsolicited extends SignInError {
  static type = "SsoUnsolicited" as const
}
/** The address has an account that this connection may not sign in to (its domain is not verified by the organization). */
export class SsoAccountNotLinked extends SignInError {
  static type = "SsoAccountNotLinked" as const
}
/** The organization's directory deactivated this person (SCIM, issue #29): no sign-in through its connections. */
export class SsoUserDeactivated extends SignInError {
  static type = "SsoUserDeactivated" as const
}
/** Another organization verified this domain, or this one claimed it already. */
export class DomainTaken extends AuthError {
  static type = "DomainTaken" as const
}
/** The DNS TXT record asked for was not found (yet). */
export class DomainNotVerified extends AuthError {
  static type = "DomainNotVerified" as const
}
/** A connection's settings are incomplete or malformed (metadata, certificate, URL). */
export class InvalidSsoConnection extends AuthError {
  static type = "InvalidSsoConnection" as const
}
