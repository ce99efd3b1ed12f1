/**
 * The named errors of API keys (issue #31). Their types join `ErrorType` here (declaration
 * merging, lib/core/errors.ts), their outcomes are on the capability object (capability.ts), and
 * `gatehouse/errors` re-exports them.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    ApiKeyInvalid: true
    ApiKeyExpired: true
    ApiKeyRequired: true
    InsufficientScope: true
    ApiKeyNotFound: true
    ApiKeysUnavailable: true
  }
}

/** The request's key is malformed, unknown or revoked (the three are not told apart). */
export class ApiKeyInvalid extends AuthError {
  static type = "ApiKeyInvalid" as const
}
/** The key's expiry has passed. */
export class ApiKeyExpired extends AuthError {
  static type = "ApiKeyExpired" as const
}
/** The route takes only API keys (`requireAuth({ apiKey: "only" })`), and the request has none. */
export class ApiKeyRequired extends AuthError {
  static type = "ApiKeyRequired" as const
}
/** The key lacks a scope the route or the request asks for. */
export class InsufficientScope extends AuthError {
  static type = "InsufficientScope" as const
}
/** No key of yours (or of this organization) has this id. */
export class ApiKeyNotFound extends AuthError {
  static type = "ApiKeyNotFound" as const
}
/** The `apiKeys` option is off, or this kind of key is (`userKeys: false`, organizations off). */
export class ApiKeysUnavailable extends AuthError {
  static type = "ApiKeysUnavailable" as const
}
