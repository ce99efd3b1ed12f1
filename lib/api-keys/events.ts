/**
 * What the `apiKey` event reports (declared on `EventCallbacks` in capability.ts): a key created,
 * used for the first time, or revoked; `type` is also the audit record's type. Never the key, nor
 * its hash.
 */
import type { API_KEY_AUDIT_TYPES } from "./audit.js"

export type ApiKeyEventType = (typeof API_KEY_AUDIT_TYPES)[number]

export interface ApiKeyEvent {
  type: ApiKeyEventType
  keyId: string
  /** The owner: a user's key's user, or an organization's key's organization. */
  userId: string | null
  organizationId: string | null
  /** Who acted (created or revoked it; absent for a use): a user, or null for server code. */
  actorId?: string | null
  name?: string
  scopes?: string[]
}
