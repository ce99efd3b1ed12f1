/**
 * What the audit trail (lib/audit/) records of API keys (issue #31): a key created, used for the
 * first time, revoked; the key's id, owner and (when created) scopes, never the key or its hash.
 */
import type { AuditEvents } from "../core/capability.js"

/** In the order of the README's table. */
export const API_KEY_AUDIT_TYPES = ["api_key.created", "api_key.first_used", "api_key.revoked"] as const

export const API_KEY_AUDIT_EVENTS: AuditEvents = {
  apiKey: ({ type, keyId, userId, organizationId, actorId, scopes }) => ({
    type,
    userId: userId ?? undefined,
    organizationId: organizationId ?? undefined,
    keyId,
    actorId: actorId ?? undefined,
    scopes,
  }),
}
