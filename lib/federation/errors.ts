/**
 * The named error only back-channel logout throws. Its type joins `ErrorType` here (declaration
 * merging, lib/core/errors.ts), its outcome is on the capability object (capability.ts), and
 * `gatehouse/errors` re-exports it.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    InvalidLogoutToken: true
  }
}

/** A back-channel logout request whose `logout_token` is missing or fails validation. */
export class InvalidLogoutToken extends AuthError {
  static type = "InvalidLogoutToken" as const
}
