/**
 * The MongoDB adapter's identity-provider records (issue #32): one document per record in
 * `oidc_records`, unique per (model, id) by the index of `setupIndexes`, its server-made ObjectId
 * `_id` the insertion order (a replaced record keeps its document, so its place). `accountId` and
 * the other references are strings as given (the user's id is its hex string). Storing is one
 * `replaceOne` with upsert; consuming one `updateOne` matching `consumedAt: null`, atomic on the
 * document: of concurrent callers exactly one modifies it. Reads skip expired documents; the TTL
 * index on `expiresAt` deletes them. Deleting a user removes the records about them (adapter.ts).
 */
import type { ClientSession, Document } from "mongodb"
import type { Adapter } from "../../lib/adapters.js"
import type { AdapterOidcRecord, OIDC_ADAPTER_METHODS } from "../../lib/identity-provider/adapter.js"
import type { Handles } from "./collections.js"
import { key } from "./convert.js"

type OidcMethods = Required<Pick<Adapter, (typeof OIDC_ADAPTER_METHODS)[number]>>
type Options = { session?: ClientSession }

/** The most records `listOidcRecords` returns (the adapter interface's limit). */
const LIST_LIMIT = 1000
/** The server's duplicate key error: a concurrent upsert inserted the document first. */
const DUPLICATE_KEY = 11000

const optionalString = (value: unknown): string | null => (typeof value === "string" ? value : null)
const optionalDate = (value: unknown): Date | null => (value ? new Date(value as Date) : null)
/** Documents that have not expired (by this process's clock, as every adapter reads it). */
const unexpired = () => ({ $or: [{ expiresAt: null }, { expiresAt: { $gt: new Date() } }] })

function toRecord(document: Document): AdapterOidcRecord {
  return {
    model: String(document.model),
    id: String(document.id),
    payload: String(document.payload),
    grantId: optionalString(document.grantId),
    userCode: optionalString(document.userCode),
    uid: optionalString(document.uid),
    accountId: optionalString(document.accountId),
    clientId: optionalString(document.clientId),
    expiresAt: optionalDate(document.expiresAt),
    consumedAt: optionalDate(document.consumedAt),
  }
}

const optionalKey = (value: string | null | undefined, name: string) => (value === null || value === undefined ? null : key(value, name))

export function oidcRecordMethods(handles: () => Promise<Handles>, opts: Options): OidcMethods {
  const named = (model: string, id: string) => ({ model: key(model, "model"), id: key(id, "id") })
  const projection = { _id: 0 }

  return {
    async putOidcRecord(record) {
      const document = {
        ...named(record.model, record.id),
        payload: key(record.payload, "payload"),
        grantId: optionalKey(record.grantId, "grantId"),
        userCode: optionalKey(record.userCode, "userCode"),
        uid: optionalKey(record.uid, "uid"),
        accountId: optionalKey(record.accountId, "accountId"),
        clientId: optionalKey(record.clientId, "clientId"),
        expiresAt: record.expiresAt ?? null,
        consumedAt: record.consumedAt ?? null,
      }
      const { oidcRecords } = await handles()
      const replace = () => oidcRecords.replaceOne(named(record.model, record.id), document, { ...opts, upsert: true })
      try {
        await replace()
      } catch (error) {
        // Servers before 4.2 do not retry an upsert that lost the race to insert: it now replaces.
        if ((error as { code?: unknown }).code !== DUPLICATE_KEY) throw error
        await replace()
      }
    },
    async getOidcRecord(model, id) {
      const found = await (await handles()).oidcRecords.findOne({ ...named(model, id), ...unexpired() }, { ...opts, projection })
      return found ? toRecord(found) : null
    },
    async findOidcRecord(model, lookup) {
      const filter = "uid" in lookup ? { uid: key(lookup.uid, "uid") } : { userCode: key(lookup.userCode, "userCode") }
      const found = await (await handles()).oidcRecords.find({ model: key(model, "model"), ...filter, ...unexpired() }, { ...opts, projection }).sort({ _id: 1 }).limit(1).toArray()
      return found[0] ? toRecord(found[0]) : null
    },
    async consumeOidcRecord(model, id, at) {
      // One atomic update: of concurrent callers, exactly one finds `consumedAt` still null.
      const { modifiedCount } = await (await handles()).oidcRecords.updateOne({ ...named(model, id), consumedAt: null, ...unexpired() }, { $set: { consumedAt: at } }, opts)
      return modifiedCount === 1
    },
    async deleteOidcRecord(model, id) {
      await (await handles()).oidcRecords.deleteOne(named(model, id), opts)
    },
    async deleteOidcGrant(grantId) {
      await (await handles()).oidcRecords.deleteMany({ grantId: key(grantId, "grantId") }, opts)
    },
    async listOidcRecords(model, filter) {
      const query: Document = { model: key(model, "model"), ...unexpired() }
      if (filter.accountId !== undefined) query.accountId = key(filter.accountId, "accountId")
      if (filter.clientId !== undefined) query.clientId = key(filter.clientId, "clientId")
      const found = await (await handles()).oidcRecords.find(query, { ...opts, projection }).sort({ _id: 1 }).limit(LIST_LIMIT).toArray()
      return found.map(toRecord)
    },
  }
}
