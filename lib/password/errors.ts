/**
 * The named errors only password accounts throw (`gatehouse/providers/password`). Their types join
 * `ErrorType` here (declaration merging, lib/core/errors.ts), their outcomes are on the capability
 * object (capability.ts), and `gatehouse/errors` re-exports them.
 */
import { AuthError, SignInError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    WeakPassword: true
    PasswordTooLong: true
    BreachedPassword: true
    PasswordLinkInvalid: true
    PasswordLinkSuperseded: true
    WrongCurrentPassword: true
    EmailNotVerified: true
  }
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
/** Password accounts: changing the password, the current password given was not right. */
export class WrongCurrentPassword extends AuthError {
  static type = "WrongCurrentPassword" as const
}
/** Password accounts: the right password, but the address was never confirmed (`requireVerifiedEmail`). */
export class EmailNotVerified extends SignInError {
  static type = "EmailNotVerified" as const
}
