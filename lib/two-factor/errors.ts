/**
 * The named errors only two-factor sign-in throws (issue #16). Their types join `ErrorType` here
 * (declaration merging, lib/core/errors.ts), their outcomes are on the capability object
 * (capability.ts), and `gatehouse/errors` re-exports them.
 */
import { SignInError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    TwoFactorCodeInvalid: true
    TwoFactorCodeReplayed: true
    TwoFactorExpired: true
    RecoveryCodeUsed: true
  }
}

/** Two-factor sign-in (issue #16): the code typed is not the current one (nor a recovery code of the user). */
export class TwoFactorCodeInvalid extends SignInError {
  static type = "TwoFactorCodeInvalid" as const
}
/** Two-factor sign-in: this code was accepted already in its 30-second window (a code works once). */
export class TwoFactorCodeReplayed extends SignInError {
  static type = "TwoFactorCodeReplayed" as const
}
/** Two-factor sign-in: the pending sign-in (10 minutes after the first factor) expired or is missing. */
export class TwoFactorExpired extends SignInError {
  static type = "TwoFactorExpired" as const
}
/** Two-factor sign-in: this recovery code was used before (each works once). */
export class RecoveryCodeUsed extends SignInError {
  static type = "RecoveryCodeUsed" as const
}
