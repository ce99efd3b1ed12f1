/**
 * The named error only the device list throws (revoke.ts). Its type joins `ErrorType` here
 * (declaration merging, lib/core/errors.ts), its outcome is on the capability object
 * (capability.ts), and `gatehouse/errors` re-exports it.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    SessionNotFound: true
  }
}

/**
 * A session id given to revoke is not one of the signed-in user's live sessions (unknown, already
 * ended, or another user's: the answer is the same, so it reveals nothing).
 */
export class SessionNotFound extends AuthError {
  static type = "SessionNotFound" as const
}
