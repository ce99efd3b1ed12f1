/**
 * The audit record types of password accounts (they join `AuditType` from capability.ts): written
 * where they happen (actions/change.ts, actions/reset.ts), as successes or refusals.
 */

/** In the order of the README's table. */
export const PASSWORD_AUDIT_TYPES = ["password.changed", "password.reset"] as const
