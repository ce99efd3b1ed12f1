/**
 * The memory adapter's identity-provider records (issue #32): what `oidc-provider` stores, keyed
 * by (model, id), in insertion order (a replaced record keeps its place, as the SQL adapter's
 * upsert keeps its row). Expired records are never returned, and are swept at most once a minute
 * when a record is stored. Every method checks and writes without awaiting in between, so a
 * consume has one winner under concurrency as it would in a database. Records are copied in and
 * out: callers never hold the stored objects.
 */
import type { Adapter } from "../../lib/adapters.js"
import type { AdapterOidcRecord, OIDC_ADAPTER_METHODS } from "../../lib/identity-provider/adapter.js"

export interface OidcRecordMaps {
  /** JSON [model, id] -> the record. */
  oidcRecords: Map<string, AdapterOidcRecord>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type OidcMethods = Required<Pick<Adapter, (typeof OIDC_ADAPTER_METHODS)[number]>>

/** The most records `listOidcRecords` returns (the adapter interface's limit). */
const LIST_LIMIT = 1000
const SWEEP_EVERY_MS = 60_000

const recordKey = (model: string, id: string) => JSON.stringify([model, id])
const dateCopy = (date: Date | null | undefined) => (date ? new Date(date.getTime()) : null)
const live = (record: AdapterOidcRecord, now: number) => record.expiresAt === null || record.expiresAt.getTime() > now

function recordCopy(record: AdapterOidcRecord): AdapterOidcRecord {
  return {
    model: record.model,
    id: record.id,
    payload: record.payload,
    grantId: record.grantId ?? null,
    userCode: record.userCode ?? null,
    uid: record.uid ?? null,
    accountId: record.accountId ?? null,
    clientId: record.clientId ?? null,
    expiresAt: dateCopy(record.expiresAt),
    consumedAt: dateCopy(record.consumedAt),
  }
}

/** Removes the records about the user (deleteUser): their sessions, grants, tokens and codes. */
export function forgetUserOidcRecords(maps: OidcRecordMaps, remove: Remove, userId: string): void {
  for (const [key, record] of maps.oidcRecords) if (record.accountId === userId) remove(maps.oidcRecords, key)
}

export function oidcRecordMethods(maps: OidcRecordMaps, put: Put, remove: Remove): OidcMethods {
  let sweptAt = 0
  /** The unexpired stored record (not a copy), or undefined. */
  const current = (model: string, id: string) => {
    const found = maps.oidcRecords.get(recordKey(model, id))
    return found && live(found, Date.now()) ? found : undefined
  }

  return {
    async putOidcRecord(record) {
      const now = Date.now()
      if (now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now
        for (const [key, stored] of maps.oidcRecords) if (!live(stored, now)) remove(maps.oidcRecords, key)
      }
      // Map.set keeps a replaced entry's place: the list stays in insertion order.
      put(maps.oidcRecords, recordKey(record.model, record.id), recordCopy(record))
    },
    async getOidcRecord(model, id) {
      const found = current(model, id)
      return found ? recordCopy(found) : null
    },
    async findOidcRecord(model, lookup) {
      const now = Date.now()
      const matches = "uid" in lookup ? (record: AdapterOidcRecord) => record.uid === lookup.uid : (record: AdapterOidcRecord) => record.userCode === lookup.userCode
      for (const record of maps.oidcRecords.values()) if (record.model === model && matches(record) && live(record, now)) return recordCopy(record)
      return null
    },
    async consumeOidcRecord(model, id, at) {
      const found = current(model, id)
      if (!found || found.consumedAt !== null) return false
      put(maps.oidcRecords, recordKey(model, id), { ...recordCopy(found), consumedAt: new Date(at.getTime()) })
      return true
    },
    async deleteOidcRecord(model, id) {
      remove(maps.oidcRecords, recordKey(model, id))
    },
    async deleteOidcGrant(grantId) {
      for (const [key, record] of maps.oidcRecords) if (record.grantId === grantId) remove(maps.oidcRecords, key)
    },
    async listOidcRecords(model, filter) {
      const now = Date.now()
      const found: AdapterOidcRecord[] = []
      for (const record of maps.oidcRecords.values()) {
        if (record.model !== model || !live(record, now)) continue
        if (filter.accountId !== undefined && record.accountId !== filter.accountId) continue
        if (filter.clientId !== undefined && record.clientId !== filter.clientId) continue
        found.push(recordCopy(record))
        if (found.length === LIST_LIMIT) break
      }
      return found
    },
  }
}
