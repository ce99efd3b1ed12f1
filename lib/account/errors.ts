/**
 * The named errors only the account page throws (`SignInMethodNotFound` also by the passkey
 * rename in lib/passkeys/, which that page asks for). Their types join `ErrorType` here
 * (declaration merging, lib/core/errors.ts), their outcomes are on the capability object
 * (capability.ts), and `gatehouse/errors` re-exports them.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    AccountPageUnavailable: true
    LastSignInMethod: true
    SignInMethodNotFound: true
  }
}

/** The account page or one of its actions, in a configuration without an adapter (no users to manage). */
export class AccountPageUnavailable extends AuthError {
  static type = "AccountPageUnavailable" as const
}
/** Removing the user's last way to sign in (they would be locked out). */
export class LastSignInMethod extends AuthError {
  static type = "LastSignInMethod" as const
}
/** An account or passkey id that is not one of the signed-in user's (nothing said about others'). */
export class SignInMethodNotFound extends AuthError {
  static type = "SignInMethodNotFound" as const
}
