/**
 * What the organization pages share about texts: a role's name as a person reads it (the
 * built-in roles are translated, the others are their own names), and the status line of a form
 * that came back (`?saved=<action>` or `?error=<type>`).
 */
import type { MessageKey, Messages } from "../i18n/index.js"

const BUILT_IN = new Set(["owner", "admin", "member"])

export function roleLabel(t: Messages, role: string): string {
  return BUILT_IN.has(role) ? t[`organizations.role.${role}` as MessageKey] : role
}

const SAVED = new Set(["create", "update", "switch", "transfer", "remove-member", "role", "invite", "resend", "revoke", "accept", "set-role", "delete-role"])
const ERRORS = new Set(["LastOwner", "SlugTaken", "AlreadyMember", "UnknownRole", "RoleInUse", "InvalidRequest", "MemberNotFound", "PermissionDenied", "InvitationInvalid"])

/** The status line for the query a form came back with (never the query's own text). */
export function statusOf(t: Messages, saved: string | undefined, error: string | undefined): { saved?: string; error?: string } {
  if (error) return { error: ERRORS.has(error) ? t[`organizations.error.${error}` as MessageKey] : t["error.default.message"] }
  if (saved) return { saved: SAVED.has(saved) ? t[`organizations.saved.${saved}` as MessageKey] : t["organizations.saved"] }
  return {}
}
