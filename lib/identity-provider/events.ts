/**
 * What the `oidcProvider` event reports (declared on `EventCallbacks` in capability.ts): consent
 * given or refused, a connected app revoked, a client created, its secret rotated, or deleted;
 * `type` is also the audit record's type. Never a secret, code or token.
 */
import type { IDENTITY_PROVIDER_AUDIT_TYPES } from "./audit.js"

export type IdentityProviderEventType = (typeof IDENTITY_PROVIDER_AUDIT_TYPES)[number]

export interface IdentityProviderEvent {
  type: IdentityProviderEventType
  clientId: string
  /** The user whose consent or app it is (absent for client changes). */
  userId?: string | null
  /** Who acted on a client (an admin's id), or null for the app's server code. */
  actorId?: string | null
  /** The scopes consented to (or refused). */
  scopes?: string[]
}
