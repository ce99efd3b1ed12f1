/**
 * The MongoDB adapter's API key methods (issue #31): one document per key in `api_keys`, `_id`
 * the key's id, `userId` an ObjectId like the other collections' (null for an organization's
 * key), `organizationId` and `createdBy` strings or null, `scopes` an array in order. The hash is
 * unique by the index of `setupIndexes`. Deleting a user removes the user's own keys, deleting an
 * organization its keys (adapter.ts); `createdBy` is only a record.
 */
import type { ClientSession, Document } from "mongodb"
import type { Adapter } from "../../lib/adapters.js"
import type { AdapterApiKey } from "../../lib/api-keys/adapter.js"
import type { Handles } from "./collections.js"
import { isObjectIdHex, key, toObjectId } from "./convert.js"
import type { API_KEY_ADAPTER_METHODS } from "../../lib/api-keys/adapter.js"

type ApiKeyMethods = Required<Pick<Adapter, (typeof API_KEY_ADAPTER_METHODS)[number]>>
type Options = { session?: ClientSession }

const optionalString = (value: unknown): string | null => (typeof value === "string" ? value : null)
const optionalDate = (value: unknown): Date | null => (value ? new Date(value as Date) : null)

function toKey(document: Document): AdapterApiKey {
  const userId = document.userId as { toHexString?: () => string } | null | undefined
  return {
    id: String(document._id),
    keyHash: String(document.keyHash),
    start: String(document.start),
    name: String(document.name),
    userId: userId ? (typeof userId.toHexString === "function" ? userId.toHexString() : String(userId)) : null,
    organizationId: optionalString(document.organizationId),
    createdBy: optionalString(document.createdBy),
    scopes: (document.scopes as unknown[]).map(String),
    createdAt: new Date(document.createdAt as Date),
    expires: optionalDate(document.expires),
    lastUsedAt: optionalDate(document.lastUsedAt),
  }
}

export function apiKeyMethods(handles: () => Promise<Handles>, opts: Options): ApiKeyMethods {
  const byId = (id: string) => ({ _id: key(id, "id") as never })

  return {
    async createApiKey(apiKey) {
      const userId = apiKey.userId === null || apiKey.userId === undefined ? null : toObjectId(apiKey.userId)
      const organizationId = apiKey.organizationId === null || apiKey.organizationId === undefined ? null : key(apiKey.organizationId, "organizationId")
      const { users, organizations, apiKeys } = await handles()
      // As the foreign keys would: a key's owner is stored.
      if (userId && !(await users.findOne({ _id: userId }, { ...opts, projection: { _id: 1 } }))) throw new Error(`no user with id ${apiKey.userId}`)
      if (organizationId !== null && !(await organizations.findOne({ _id: organizationId as never }, { ...opts, projection: { _id: 1 } }))) {
        throw new Error(`no organization with id ${organizationId}`)
      }
      const document = {
        ...byId(apiKey.id),
        keyHash: key(apiKey.keyHash, "keyHash"),
        start: apiKey.start,
        name: apiKey.name,
        userId,
        organizationId,
        createdBy: apiKey.createdBy ?? null,
        scopes: apiKey.scopes.map((scope) => key(scope, "scopes")),
        createdAt: apiKey.createdAt,
        expires: apiKey.expires ?? null,
        lastUsedAt: apiKey.lastUsedAt ?? null,
      }
      // A second key with the same hash: the unique index refuses the insert (it throws).
      await apiKeys.insertOne(document, opts)
      return toKey(document)
    },
    async getApiKeyByHash(keyHash) {
      const found = await (await handles()).apiKeys.findOne({ keyHash: key(keyHash, "keyHash") }, opts)
      return found ? toKey(found) : null
    },
    async getApiKey(id) {
      const found = await (await handles()).apiKeys.findOne(byId(id), opts)
      return found ? toKey(found) : null
    },
    async listApiKeys(owner) {
      let filter: Document
      if ("userId" in owner) {
        // An id that cannot be an ObjectId belongs to no user: no keys.
        if (!isObjectIdHex(key(owner.userId, "userId"))) return []
        filter = { userId: toObjectId(owner.userId) }
      } else filter = { organizationId: key(owner.organizationId, "organizationId") }
      const found = await (await handles()).apiKeys.find(filter, opts).sort({ createdAt: 1, _id: 1 }).toArray()
      return found.map(toKey)
    },
    async touchApiKey(id, lastUsedAt) {
      await (await handles()).apiKeys.updateOne(byId(id), { $set: { lastUsedAt } }, opts)
    },
    async deleteApiKey(id) {
      // One atomic operation: of concurrent callers, exactly one gets the document.
      const deleted = await (await handles()).apiKeys.findOneAndDelete(byId(id), opts)
      return deleted ? toKey(deleted) : null
    },
  }
}
