/**
 * What the audit trail (lib/audit/) records of the account page: its record types (they join
 * `AuditType` from capability.ts) and the records its events become (built only when
 * `events.audit` is set). `email.changed` is written where the change is made (email-change.ts,
 * and its undo, lib/notices/undo-email.ts).
 */
import type { AuditEvents } from "../core/capability.js"
import { accountRecord, idOf } from "../audit/records.js"

/** In the order of the README's table. */
export const ACCOUNT_AUDIT_TYPES = ["user.deleted", "account.unlinked", "passkey.removed", "email.changed"] as const

export const ACCOUNT_AUDIT_EVENTS: AuditEvents = {
  unlinkAccount: ({ user, account }) => accountRecord({ account: "account.unlinked", passkey: "passkey.removed" }, user, account),
  deleteUser: ({ user }) => ({ type: "user.deleted", userId: idOf(user) }),
}
