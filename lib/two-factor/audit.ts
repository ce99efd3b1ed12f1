/**
 * What the audit trail (lib/audit/) records of two-factor sign-in: its record types (they join
 * `AuditType` from capability.ts) and the records its events become (built only when
 * `events.audit` is set).
 */
import type { AuditEvents } from "../core/capability.js"

/** In the order of the README's table. */
export const TWO_FACTOR_AUDIT_TYPES = ["two_factor.enabled", "two_factor.disabled", "two_factor.challenge"] as const

export const TWO_FACTOR_AUDIT_EVENTS: AuditEvents = {
  twoFactorEnabled: ({ userId }) => ({ type: "two_factor.enabled", userId }),
  twoFactorDisabled: ({ userId }) => ({ type: "two_factor.disabled", userId }),
  // A wrong code is a failure, its reason the error type.
  twoFactorChallenge: ({ userId, method, outcome }) => {
    const failure = outcome !== "success"
    return { type: "two_factor.challenge", outcome: failure ? "failure" : "success", reason: failure ? outcome : undefined, userId, method }
  },
}
