/**
 * The memory adapter's API key methods (issue #31): keys by id, each of a user or of an
 * organization, the hash unique. Every method checks and writes without awaiting in between, so
 * the unique hash and the one-winner delete hold under concurrency as they would in a database.
 * Records are copied in and out: callers never hold the stored objects.
 */
import type { Adapter, AdapterUser } from "../../lib/adapters.js"
import type { AdapterApiKey, API_KEY_ADAPTER_METHODS } from "../../lib/api-keys/adapter.js"

export interface ApiKeyMaps {
  /** Key id -> the key. */
  apiKeys: Map<string, AdapterApiKey>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type ApiKeyMethods = Required<Pick<Adapter, (typeof API_KEY_ADAPTER_METHODS)[number]>>

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
/** Oldest first, then by id: the SQL and MongoDB adapters' order. */
const byAge = (a: AdapterApiKey, b: AdapterApiKey) => a.createdAt.getTime() - b.createdAt.getTime() || compare(a.id, b.id)
const dateCopy = (date: Date | null | undefined) => (date ? new Date(date.getTime()) : null)

function keyCopy(key: AdapterApiKey): AdapterApiKey {
  return {
    id: key.id,
    keyHash: key.keyHash,
    start: key.start,
    name: key.name,
    userId: key.userId ?? null,
    organizationId: key.organizationId ?? null,
    createdBy: key.createdBy ?? null,
    scopes: [...key.scopes],
    createdAt: new Date(key.createdAt.getTime()),
    expires: dateCopy(key.expires),
    lastUsedAt: dateCopy(key.lastUsedAt),
  }
}

/** Removes the user's own keys (deleteUser); organization keys they made stay. */
export function forgetUserApiKeys(maps: ApiKeyMaps, remove: Remove, userId: string): void {
  for (const [id, key] of maps.apiKeys) if (key.userId === userId) remove(maps.apiKeys, id)
}

/** Removes the organization's keys (deleteOrganization). */
export function forgetOrganizationApiKeys(maps: ApiKeyMaps, remove: Remove, organizationId: string): void {
  for (const [id, key] of maps.apiKeys) if (key.organizationId === organizationId) remove(maps.apiKeys, id)
}

export function apiKeyMethods(maps: ApiKeyMaps & { users: Map<string, AdapterUser>; organizations: Map<string, unknown> }, put: Put, remove: Remove): ApiKeyMethods {
  // A scan without copying (the memory adapter is for development and tests; Gatehouse caches keys per process).
  const byHash = (keyHash: string) => {
    for (const key of maps.apiKeys.values()) if (key.keyHash === keyHash) return key
    return undefined
  }

  return {
    async createApiKey(key) {
      if (maps.apiKeys.has(key.id)) throw new Error(`an API key with id ${key.id} exists`)
      if (byHash(key.keyHash)) throw new Error("an API key with this hash exists")
      // As the foreign keys would: a key's owner is stored (createdBy is only a record).
      if (typeof key.userId === "string" && !maps.users.has(key.userId)) throw new Error(`no user with id ${key.userId}`)
      if (typeof key.organizationId === "string" && !maps.organizations.has(key.organizationId)) throw new Error(`no organization with id ${key.organizationId}`)
      put(maps.apiKeys, key.id, keyCopy(key))
      return keyCopy(key)
    },
    async getApiKeyByHash(keyHash) {
      const found = byHash(keyHash)
      return found ? keyCopy(found) : null
    },
    async getApiKey(id) {
      const found = maps.apiKeys.get(id)
      return found ? keyCopy(found) : null
    },
    async listApiKeys(owner) {
      const mine = "userId" in owner ? (key: AdapterApiKey) => key.userId === owner.userId : (key: AdapterApiKey) => key.organizationId === owner.organizationId
      return [...maps.apiKeys.values()].filter(mine).sort(byAge).map(keyCopy)
    },
    async touchApiKey(id, lastUsedAt) {
      const current = maps.apiKeys.get(id)
      if (current) put(maps.apiKeys, id, keyCopy({ ...current, lastUsedAt }))
    },
    async deleteApiKey(id) {
      const found = maps.apiKeys.get(id)
      if (!found) return null
      remove(maps.apiKeys, id)
      return keyCopy(found)
    },
  }
}
