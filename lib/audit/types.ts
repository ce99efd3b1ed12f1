/**
 * The audit trail (issue #20): one record per security-relevant event, handed to `events.audit`.
 * Record types are stable names (the README's "Audit trail" lists them); a record never holds a
 * token, code, password, secret or cookie.
 */

/** Every record type, in the order the README's table lists them. */
export const AUDIT_TYPES = [
  "signin",
  "signout",
  "user.created",
  "user.deleted",
  "account.linked",
  "account.unlinked",
  "account.reclaimed",
  "passkey.added",
  "passkey.removed",
  "two_factor.enabled",
  "two_factor.disabled",
  "two_factor.challenge",
  "session.revoked",
  "password.changed",
  "password.reset",
  "email.changed",
  "rate_limited",
] as const

export type AuditType = (typeof AUDIT_TYPES)[number]

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

/** What a caller gives: the rest (time, ip, user agent, request id) is filled in. */
export type AuditInput = Omit<AuditRecord, "time" | "outcome"> & { outcome?: AuditRecord["outcome"] }

export type AuditCallback = (record: AuditRecord) => unknown
