/**
 * The named error only passkey naming throws. Its type joins `ErrorType` here (declaration
 * merging, lib/core/errors.ts), its outcome is on the capability object (capability.ts), and
 * `gatehouse/errors` re-exports it.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    InvalidPasskeyName: true
  }
}

/** Renaming a passkey: the name, trimmed, must be 1 to 64 characters without control characters. */
export class InvalidPasskeyName extends AuthError {
  static type = "InvalidPasskeyName" as const
}
