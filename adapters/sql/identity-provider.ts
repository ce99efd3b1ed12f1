/**
 * The SQL adapter's identity-provider records (issue #32) in `oidc_records` (migration
 * 0012_identity_provider, identity-provider-schema.ts), keyed by (model, id). Storing is one
 * upsert (INSERT ... ON CONFLICT DO UPDATE; ON DUPLICATE KEY UPDATE on MySQL/MariaDB), so
 * concurrent stores of one record never fail and the row keeps its place in the insertion order.
 * Consuming is one UPDATE ... WHERE consumed_at IS NULL: the database's row lock makes exactly one
 * of concurrent callers change the row. Reads skip expired rows (by this process's clock); expired
 * rows are deleted at most once a minute per adapter, when a record is stored. `deleteUser`
 * deletes the user's records (index.ts).
 */
import type { Adapter } from "../../lib/adapters.js"
import type { AdapterOidcRecord, OIDC_ADAPTER_METHODS } from "../../lib/identity-provider/adapter.js"
import { kindOf, optionalStr, str, type AnyDb, type Codec } from "./codec.js"
import type { TableNames } from "./tables.js"

type OidcMethods = Required<Pick<Adapter, (typeof OIDC_ADAPTER_METHODS)[number]>>
type Row = Record<string, unknown>

/** The most records `listOidcRecords` returns (the adapter interface's limit). */
const LIST_LIMIT = 1000
const SWEEP_EVERY_MS = 60_000

export function oidcRecordMethods(db: AnyDb, t: TableNames, codec: Codec): OidcMethods {
  const kind = kindOf(db)
  // The insertion order: an identity/AUTO_INCREMENT column, or SQLite's rowid (identity-provider-schema.ts).
  const insertionOrder = kind === "sqlite" ? "rowid" : "seq"
  let sweptAt = 0
  const optionalDate = (value: unknown) => (value === null || value === undefined ? null : codec.toDate(value))
  const toRecord = (row: Row): AdapterOidcRecord => ({
    model: str(row.model),
    id: str(row.id),
    payload: str(row.payload),
    grantId: optionalStr(row.grant_id),
    userCode: optionalStr(row.user_code),
    uid: optionalStr(row.uid),
    accountId: optionalStr(row.account_id),
    clientId: optionalStr(row.client_id),
    expiresAt: optionalDate(row.expires_at),
    consumedAt: optionalDate(row.consumed_at),
  })
  /** The model's rows that have not expired (by this process's clock, as every adapter reads it). */
  const live = (model: string) =>
    db
      .selectFrom(t.oidcRecords)
      .select(["model", "id", "payload", "grant_id", "user_code", "uid", "account_id", "client_id", "expires_at", "consumed_at"])
      .where("model", "=", model)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", codec.instant(new Date()))]))

  return {
    async putOidcRecord(record) {
      const now = Date.now()
      if (now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now
        await db.deleteFrom(t.oidcRecords).where("expires_at", "<=", codec.instant(new Date(now))).execute()
      }
      const changes = {
        payload: record.payload,
        grant_id: record.grantId ?? null,
        user_code: record.userCode ?? null,
        uid: record.uid ?? null,
        account_id: record.accountId ?? null,
        client_id: record.clientId ?? null,
        expires_at: record.expiresAt ? codec.instant(record.expiresAt) : null,
        consumed_at: record.consumedAt ? codec.instant(record.consumedAt) : null,
      }
      // Every column but the key replaced: the whole record, `consumed_at` included; `seq` stays.
      const insert = db.insertInto(t.oidcRecords).values({ model: record.model, id: record.id, ...changes })
      if (kind === "mysql") await insert.onDuplicateKeyUpdate(changes).execute()
      else await insert.onConflict((conflict) => conflict.columns(["model", "id"]).doUpdateSet(changes)).execute()
    },
    async getOidcRecord(model, id) {
      const row = await live(model).where("id", "=", id).executeTakeFirst()
      return row ? toRecord(row) : null
    },
    async findOidcRecord(model, lookup) {
      const [column, value] = "uid" in lookup ? (["uid", lookup.uid] as const) : (["user_code", lookup.userCode] as const)
      const row = await live(model).where(column, "=", value).orderBy(insertionOrder).limit(1).executeTakeFirst()
      return row ? toRecord(row) : null
    },
    async consumeOidcRecord(model, id, at) {
      const result = await db
        .updateTable(t.oidcRecords)
        .set({ consumed_at: codec.instant(at) })
        .where("model", "=", model)
        .where("id", "=", id)
        .where("consumed_at", "is", null)
        .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", codec.instant(new Date()))]))
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async deleteOidcRecord(model, id) {
      await db.deleteFrom(t.oidcRecords).where("model", "=", model).where("id", "=", id).execute()
    },
    async deleteOidcGrant(grantId) {
      await db.deleteFrom(t.oidcRecords).where("grant_id", "=", grantId).execute()
    },
    async listOidcRecords(model, filter) {
      let query = live(model)
      if (filter.accountId !== undefined) query = query.where("account_id", "=", filter.accountId)
      if (filter.clientId !== undefined) query = query.where("client_id", "=", filter.clientId)
      const rows = await query.orderBy(insertionOrder).limit(LIST_LIMIT).execute()
      return rows.map(toRecord)
    },
  }
}
