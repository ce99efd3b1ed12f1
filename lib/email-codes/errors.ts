/**
 * The named errors only one-time email codes throw (checked by callback.ts). Their types join
 * `ErrorType` here (declaration merging, lib/core/errors.ts), their outcomes are on the capability
 * object (capability.ts), and `gatehouse/errors` re-exports them.
 */
import { SignInError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    EmailCodeInvalid: true
    EmailCodeExpired: true
    EmailCodeLocked: true
    EmailCodeNotBound: true
  }
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
