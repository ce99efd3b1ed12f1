/**
 * The SQL adapter's API key methods (issue #31) and their table (migration 0011_api_keys,
 * additive): `api_keys`, the key hash unique, the scopes a JSON list. A key goes with its user or
 * its organization (foreign keys with ON DELETE CASCADE, and `deleteUser` and `deleteOrganization`
 * delete them themselves where foreign keys are off: index.ts); `created_by` is only a record.
 */
import type { Adapter } from "../../lib/adapters.js"
import type { AdapterApiKey } from "../../lib/api-keys/adapter.js"
import { optionalStr, str, type AnyDb, type Codec } from "./codec.js"
import type { TableNames } from "./tables.js"
import type { API_KEY_ADAPTER_METHODS } from "../../lib/api-keys/adapter.js"

type ApiKeyMethods = Required<Pick<Adapter, (typeof API_KEY_ADAPTER_METHODS)[number]>>

type Row = Record<string, unknown>
/** Deletes the one row matching and returns it, to exactly one of concurrent callers (index.ts). */
type Take = (table: string, where: Record<string, string>) => Promise<Row | undefined>

export function apiKeyMethods(db: AnyDb, t: TableNames, codec: Codec, take: Take): ApiKeyMethods {
  const optionalDate = (value: unknown) => (value === null || value === undefined ? null : codec.toDate(value))
  const toKey = (row: Row): AdapterApiKey => ({
    id: str(row.id),
    keyHash: str(row.key_hash),
    start: str(row.start),
    name: str(row.name),
    userId: optionalStr(row.user_id),
    organizationId: optionalStr(row.organization_id),
    createdBy: optionalStr(row.created_by),
    scopes: JSON.parse(str(row.scopes)) as string[],
    createdAt: codec.toDate(row.created_at),
    expires: optionalDate(row.expires),
    lastUsedAt: optionalDate(row.last_used_at),
  })
  const keyRow = async (column: "id" | "key_hash", value: string) => {
    const row = await db.selectFrom(t.apiKeys).selectAll().where(column, "=", value).executeTakeFirst()
    return row ? toKey(row) : null
  }

  return {
    async createApiKey(key) {
      // A second key with the same hash is refused: by the unique constraint, and first by a read,
      // since a CI run saw SQLite accept a duplicate (cause not found yet: see the note).
      if (await keyRow("key_hash", key.keyHash)) throw new Error("an API key with this hash exists")
      await db
        .insertInto(t.apiKeys)
        .values({
          id: key.id,
          key_hash: key.keyHash,
          start: key.start,
          name: key.name,
          user_id: key.userId ?? null,
          organization_id: key.organizationId ?? null,
          created_by: key.createdBy ?? null,
          scopes: JSON.stringify(key.scopes),
          created_at: codec.instant(key.createdAt),
          expires: key.expires ? codec.instant(key.expires) : null,
          last_used_at: key.lastUsedAt ? codec.instant(key.lastUsedAt) : null,
        })
        .execute()
      return (await keyRow("id", key.id)) as AdapterApiKey
    },
    getApiKeyByHash: (keyHash) => keyRow("key_hash", keyHash),
    getApiKey: (id) => keyRow("id", id),
    async listApiKeys(owner) {
      const [column, value] = "userId" in owner ? (["user_id", owner.userId] as const) : (["organization_id", owner.organizationId] as const)
      const rows = await db.selectFrom(t.apiKeys).selectAll().where(column, "=", value).orderBy("created_at").orderBy("id").execute()
      return rows.map(toKey)
    },
    async touchApiKey(id, lastUsedAt) {
      await db.updateTable(t.apiKeys).set({ last_used_at: codec.instant(lastUsedAt) }).where("id", "=", id).execute()
    },
    async deleteApiKey(id) {
      const row = await take(t.apiKeys, { id })
      return row ? toKey(row) : null
    },
  }
}
