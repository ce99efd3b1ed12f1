/**
 * What the audit trail (lib/audit/) records of the identity provider (issue #32): consent given or
 * refused, a connected app's access revoked by its user, clients created, changed and deleted; the
 * user, the client and the scopes, never a secret, code or token.
 */
import type { AuditEvents } from "../core/capability.js"

/** In the order of the README's table. */
export const IDENTITY_PROVIDER_AUDIT_TYPES = ["oidc.consent.granted", "oidc.consent.denied", "oidc.app.revoked", "oidc.client.created", "oidc.client.secret_rotated", "oidc.client.deleted"] as const

export const IDENTITY_PROVIDER_AUDIT_EVENTS: AuditEvents = {
  oidcProvider: ({ type, userId, clientId, actorId, scopes }) => ({
    type,
    userId: userId ?? undefined,
    clientId,
    actorId: actorId ?? undefined,
    scopes,
  }),
}
