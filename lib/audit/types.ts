/**
 * The audit trail (issue #20): one record per security-relevant event, handed to `events.audit`.
 * Record types are stable names (the README's "Audit trail" lists them); a record never holds a
 * token, code, password, secret or cookie. This file imports nothing, so the public types
 * (callbacks.ts) and each capability adding its record types build on it without import cycles.
 */

/**
 * The audit trail's own record types: the core's events' (from-events.ts) and the refusals of the
 * services several capabilities share (a reclaimed account, a rate limit). A capability lists its
 * own in its `auditTypes` (lib/core/capability.ts); the README's table lists them all.
 */
export const CORE_AUDIT_TYPES = ["signin", "signout", "user.created", "account.linked", "account.reclaimed", "passkey.added", "session.revoked", "rate_limited"] as const

/**
 * Every record type, by declaration merging (issue #25): the core's here, and a capability's from
 * its capability.ts (where the published types reach it), made from the list it gives as `auditTypes`:
 * `declare module "../audit/types.js" { interface AuditTypes extends Record<(typeof TWO_FACTOR_AUDIT_TYPES)[number], true> {} }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AuditTypes extends Record<(typeof CORE_AUDIT_TYPES)[number], true> {}

export type AuditType = keyof AuditTypes

export interface AuditRecord {
  /** When it happened (ISO 8601, UTC). */
  time: string
  type: AuditType
  outcome: "success" | "failure"
  /** The stable error type of a failure (`CredentialsSignin`, `OAuthCallbackError`, `RateLimited`, ...). */
  reason?: string
  /** The user concerned, when known. */
  userId?: string
  /** The provider id (`github`, `credentials`, `password`, `email`, `passkey`, ...). */
  provider?: string
  /** The client's address as rate limits see it (IPv6 as its /64). */
  ip?: string
  userAgent?: string
  /** The request id (`X-Request-Id`), also on every log line of the request. */
  requestId?: string
  /** Type-specific fields (see the README): scope, method, isNewUser, limit, ... */
  [field: string]: unknown
}

export type AuditCallback = (record: AuditRecord) => unknown
