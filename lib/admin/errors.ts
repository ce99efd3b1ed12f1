/**
 * The named errors of the admin tools (issue #30). Their types join `ErrorType` here (declaration
 * merging, lib/core/errors.ts), their outcomes are on the capability object (capability.ts), and
 * `gatehouse/errors` re-exports them.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    AdminRequired: true
    AdminUnavailable: true
    UserNotFound: true
    EmailInUse: true
    UserBanned: true
    ImpersonationDenied: true
    ImpersonationRestricted: true
    NotImpersonating: true
  }
}

/** The signed-in user is not an admin. */
export class AdminRequired extends AuthError {
  static type = "AdminRequired" as const
}
/** The `admin` option is off. */
export class AdminUnavailable extends AuthError {
  static type = "AdminUnavailable" as const
}
/** No user has this id. */
export class UserNotFound extends AuthError {
  static type = "UserNotFound" as const
}
/** Another user has this email address. */
export class EmailInUse extends AuthError {
  static type = "EmailInUse" as const
}
/** The user is banned: sign-in is refused, whatever the method. */
export class UserBanned extends AuthError {
  static type = "UserBanned" as const
}
/** This user cannot be impersonated (an admin, yourself, a banned user) or impersonation is off. */
export class ImpersonationDenied extends AuthError {
  static type = "ImpersonationDenied" as const
}
/** The action is refused while an admin impersonates the user (deleting the account, the email, the password, two-factor, ways to sign in, new keys, admin actions). */
export class ImpersonationRestricted extends AuthError {
  static type = "ImpersonationRestricted" as const
}
/** Stopping an impersonation when the browser has none. */
export class NotImpersonating extends AuthError {
  static type = "NotImpersonating" as const
}
