/**
 * The named errors of organizations (issue #27). Their types join `ErrorType` here (declaration
 * merging, lib/core/errors.ts), their outcomes are on the capability object (capability.ts), and
 * `gatehouse/errors` re-exports them.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    OrganizationRequired: true
    PermissionDenied: true
    OrganizationNotFound: true
    MemberNotFound: true
    LastOwner: true
    SlugTaken: true
    AlreadyMember: true
    UnknownRole: true
    RoleInUse: true
    InvitationInvalid: true
    InvitationMismatch: true
    OrganizationsUnavailable: true
  }
}

/** The route needs an active organization, and the session has none (the user is in no organization). */
export class OrganizationRequired extends AuthError {
  static type = "OrganizationRequired" as const
}
/** The user's role in the active organization does not grant what the route or action needs. */
export class PermissionDenied extends AuthError {
  static type = "PermissionDenied" as const
}
/** No such organization, or the user is not a member of it (the two are not told apart). */
export class OrganizationNotFound extends AuthError {
  static type = "OrganizationNotFound" as const
}
/** The user named is not a member of this organization. */
export class MemberNotFound extends AuthError {
  static type = "MemberNotFound" as const
}
/** The change would leave the organization without an owner: make another member an owner first. */
export class LastOwner extends AuthError {
  static type = "LastOwner" as const
}
/** Another organization has this slug. */
export class SlugTaken extends AuthError {
  static type = "SlugTaken" as const
}
/** The user is a member of this organization already. */
export class AlreadyMember extends AuthError {
  static type = "AlreadyMember" as const
}
/** The role is not one of the organization's roles (built-in, configured, or its own). */
export class UnknownRole extends AuthError {
  static type = "UnknownRole" as const
}
/** The organization's own role is held by members: give them another role first. */
export class RoleInUse extends AuthError {
  static type = "RoleInUse" as const
}
/** The invitation link is unknown, used, revoked, or expired. */
export class InvitationInvalid extends AuthError {
  static type = "InvitationInvalid" as const
}
/** The invitation is for another address than the signed-in user's verified one. */
export class InvitationMismatch extends AuthError {
  static type = "InvitationMismatch" as const
}
/** The `organizations` option is off, or the adapter cannot store organizations. */
export class OrganizationsUnavailable extends AuthError {
  static type = "OrganizationsUnavailable" as const
}
