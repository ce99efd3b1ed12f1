/**
 * The adapter methods of API keys (Gatehouse extensions, issue #31): keys of a user or of an
 * organization, stored only as a hash. They join `Adapter` from here by declaration merging;
 * `API_KEY_ADAPTER_METHODS` names them for the core's adapter wrapper and for
 * `MissingAdapterMethods`. Contract checks: adapters/test-kit/api-keys.ts.
 *
 * Rules the adapter keeps: `keyHash` is unique; a key belongs to a user (`userId`, with
 * `organizationId` null) or to an organization (`organizationId`, with `userId` null); deleting
 * the user deletes the user's keys, deleting the organization deletes its keys (`createdBy`, the
 * user who made an organization's key, is only a record: deleting that user keeps the key).
 */
import type { Awaitable } from "../base-types.js"

export interface AdapterApiKey {
  /** Made by Gatehouse (unique). */
  id: string
  /** SHA-256 of the whole key (base64url); the key itself is shown once and never stored. Unique. */
  keyHash: string
  /** The key's first characters (its prefix and four more), so people can tell their keys apart. */
  start: string
  /** What its owner called it ("CI deploys"). */
  name: string
  /** The user who owns it (null for an organization's key). */
  userId: string | null
  /** The organization that owns it (null for a user's key). */
  organizationId: string | null
  /** Who made it (null: the app's server code). */
  createdBy: string | null
  /** What it may do: app-declared scopes, or the organization's permissions (`project:read`). */
  scopes: string[]
  createdAt: Date
  /** null: until revoked. */
  expires: Date | null
  /** Written at most once a minute; null: never used. */
  lastUsedAt: Date | null
}

/** Whose keys `listApiKeys` lists. */
export type ApiKeyOwner = { userId: string } | { organizationId: string }

declare module "../adapters.js" {
  interface Adapter {
    /** Gatehouse extension (API keys): stores a key. */
    createApiKey?(key: AdapterApiKey): Awaitable<AdapterApiKey>
    /** Gatehouse extension: the key with this hash, or null. */
    getApiKeyByHash?(keyHash: string): Awaitable<AdapterApiKey | null>
    /** Gatehouse extension: the key with this id, or null. */
    getApiKey?(id: string): Awaitable<AdapterApiKey | null>
    /** Gatehouse extension: a user's own keys (not their organizations'), or an organization's keys; oldest first. */
    listApiKeys?(owner: ApiKeyOwner): Awaitable<AdapterApiKey[]>
    /** Gatehouse extension: records a use. */
    touchApiKey?(id: string, lastUsedAt: Date): Awaitable<void>
    /** Gatehouse extension, atomic: deletes the key and returns it to exactly one of concurrent callers (null to the others). */
    deleteApiKey?(id: string): Awaitable<AdapterApiKey | null>
  }
}

export const API_KEY_ADAPTER_METHODS = ["createApiKey", "getApiKeyByHash", "getApiKey", "listApiKeys", "touchApiKey", "deleteApiKey"] as const
