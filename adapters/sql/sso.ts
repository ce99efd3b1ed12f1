/**
 * The SQL adapter's enterprise sign-in methods (issue #28) and their tables (migration 0008_sso,
 * additive): `sso_connections` (settings and mapping as JSON text) and `sso_domains`, one row per
 * claim keyed by (organization, domain). Both go with their organization (foreign keys with ON
 * DELETE CASCADE, and `deleteOrganization` deletes them itself where foreign keys are off).
 *
 * The rules that must hold under concurrency:
 * - an organization claims a domain once: the primary key decides (`"domainTaken"`);
 * - a domain is verified for one organization at most: `verifyDomain` first holds every row of
 *   the domain, whichever organization's, for the rest of its transaction (SELECT ... FOR UPDATE;
 *   on SQLite a write, which takes the database's write lock), so verifications of one domain run
 *   one after the other, then refuses when another organization's claim is verified. PostgreSQL
 *   and SQLite also have a partial unique index on the verified claims (MySQL has no partial
 *   indexes; there the lock alone decides).
 */
import { sql, type Migration } from "kysely"
import type { Adapter, AdapterDomain, AdapterSsoConnection } from "../../lib/adapters.js"
import { DOMAIN_TAKEN } from "../../lib/sso/adapter.js"
import { columnTypes, kindOf, str, type AnyDb, type Codec, type SqlKind } from "./codec.js"
import { isUniqueViolation } from "./organizations.js"
import type { TableNames } from "./tables.js"
import type { SSO_ADAPTER_METHODS } from "../../lib/sso/adapter.js"

type SsoMethods = Required<Pick<Adapter, (typeof SSO_ADAPTER_METHODS)[number]>>

type Row = Record<string, unknown>
type Atomically = <T>(work: (trx: AnyDb) => Promise<T>) => Promise<T>

/** A transaction the engine ended to break a deadlock (MySQL/MariaDB ER_LOCK_DEADLOCK, PostgreSQL 40P01): safe to run again. */
function isDeadlock(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  return code === "40P01" || code === "ER_LOCK_DEADLOCK" || errno === 1213
}

const fromJson = <T>(value: unknown): T => JSON.parse(str(value)) as T
const toBoolean = (value: unknown) => (typeof value === "boolean" ? value : Boolean(Number(value)))

export function ssoMethods(db: AnyDb, t: TableNames, codec: Codec, atomically: Atomically, bound: boolean): SsoMethods {
  const kind = kindOf(db)

  const toConnection = (row: Row): AdapterSsoConnection => ({
    id: str(row.id),
    organizationId: str(row.organization_id),
    type: str(row.type) as AdapterSsoConnection["type"],
    name: str(row.name),
    enabled: toBoolean(row.enabled),
    settings: fromJson(row.settings),
    mapping: row.mapping === null || row.mapping === undefined ? null : fromJson(row.mapping),
    createdAt: codec.toDate(row.created_at),
    updatedAt: codec.toDate(row.updated_at),
  })
  const toDomain = (row: Row): AdapterDomain => ({
    organizationId: str(row.organization_id),
    domain: str(row.domain),
    token: str(row.token),
    verifiedAt: row.verified_at === null || row.verified_at === undefined ? null : codec.toDate(row.verified_at),
    enforceSso: toBoolean(row.enforce_sso),
    createdAt: codec.toDate(row.created_at),
  })

  const connectionById = async (trx: AnyDb, id: string) => {
    const row = await trx.selectFrom(t.ssoConnections).selectAll().where("id", "=", id).executeTakeFirst()
    return row ? toConnection(row) : null
  }
  const domainRow = async (trx: AnyDb, organizationId: string, domain: string) => {
    const row = await trx.selectFrom(t.ssoDomains).selectAll().where("organization_id", "=", organizationId).where("domain", "=", domain).executeTakeFirst()
    return row ? toDomain(row) : null
  }
  /** Whether another organization than `organizationId` has verified `domain` (FOR UPDATE: on MySQL a locking read sees the latest committed rows). */
  const verifiedElsewhere = async (trx: AnyDb, organizationId: string, domain: string, locking: boolean) => {
    const query = trx.selectFrom(t.ssoDomains).select("organization_id").where("domain", "=", domain).where("organization_id", "<>", organizationId).where("verified_at", "is not", null)
    return (await (locking && kind !== "sqlite" ? query.forUpdate() : query).executeTakeFirst()) !== undefined
  }
  /**
   * Holds every claim of the domain until the transaction ends: verifications of one domain wait
   * for the one before. SQLite has no row locks: a write takes the database's write lock.
   */
  const holdDomain = async (trx: AnyDb, domain: string) => {
    if (kind === "sqlite") await trx.updateTable(t.ssoDomains).set((eb) => ({ domain: eb.ref("domain") })).where("domain", "=", domain).execute()
    else await trx.selectFrom(t.ssoDomains).select("organization_id").where("domain", "=", domain).forUpdate().execute()
  }
  /** `work` in its own transaction, run again when the engine broke a deadlock (not inside a caller's transaction: that is the caller's). */
  const retrying = async <T>(work: (trx: AnyDb) => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await atomically(work)
      } catch (error) {
        if (bound || attempt >= 3 || !isDeadlock(error)) throw error
      }
    }
  }

  return {
    async createSsoConnection(connection) {
      await db
        .insertInto(t.ssoConnections)
        .values({
          id: connection.id,
          organization_id: connection.organizationId,
          type: connection.type,
          name: connection.name,
          enabled: codec.bool(connection.enabled),
          settings: JSON.stringify(connection.settings),
          mapping: connection.mapping === undefined || connection.mapping === null ? null : JSON.stringify(connection.mapping),
          created_at: codec.instant(connection.createdAt),
          updated_at: codec.instant(connection.updatedAt),
        })
        .execute()
      return (await connectionById(db, connection.id)) as AdapterSsoConnection
    },
    getSsoConnection: (id) => connectionById(db, id),
    async listSsoConnections(organizationId) {
      const rows = await db.selectFrom(t.ssoConnections).selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute()
      return rows.map(toConnection)
    },
    async updateSsoConnection(id, changes) {
      const set: Row = {}
      if (changes.name !== undefined) set.name = changes.name
      if (changes.enabled !== undefined) set.enabled = codec.bool(changes.enabled)
      if (changes.settings !== undefined) set.settings = JSON.stringify(changes.settings)
      if (changes.mapping !== undefined) set.mapping = changes.mapping === null ? null : JSON.stringify(changes.mapping)
      if (changes.updatedAt !== undefined) set.updated_at = codec.instant(changes.updatedAt)
      if (Object.keys(set).length) await db.updateTable(t.ssoConnections).set(set).where("id", "=", id).execute()
      return connectionById(db, id)
    },
    async deleteSsoConnection(id) {
      await db.deleteFrom(t.ssoConnections).where("id", "=", id).execute()
    },

    async createDomain(domain) {
      const values = {
        organization_id: domain.organizationId,
        domain: domain.domain,
        token: domain.token,
        verified_at: domain.verifiedAt ? codec.instant(domain.verifiedAt) : null,
        enforce_sso: codec.bool(domain.enforceSso),
        created_at: codec.instant(domain.createdAt),
      }
      try {
        return await atomically(async (trx) => {
          if (await verifiedElsewhere(trx, domain.organizationId, domain.domain, false)) return DOMAIN_TAKEN
          if (kind === "mysql") {
            // Here only the statement fails on a duplicate; the transaction goes on.
            try {
              await trx.insertInto(t.ssoDomains).values(values).execute()
            } catch (error) {
              if (isUniqueViolation(error)) return DOMAIN_TAKEN
              throw error
            }
          } else {
            // ON CONFLICT DO NOTHING: a failed statement would spoil a PostgreSQL transaction.
            const result = await trx
              .insertInto(t.ssoDomains)
              .values(values)
              .onConflict((conflict) => conflict.columns(["organization_id", "domain"]).doNothing())
              .executeTakeFirst()
            if (Number(result.numInsertedOrUpdatedRows ?? 0) !== 1) return DOMAIN_TAKEN
          }
          return (await domainRow(trx, domain.organizationId, domain.domain)) as AdapterDomain
        })
      } catch (error) {
        // A claim stored already verified while another organization's is (the partial unique index).
        if (isUniqueViolation(error) && !bound) return DOMAIN_TAKEN
        throw error
      }
    },
    getDomain: (organizationId, domain) => domainRow(db, organizationId, domain),
    async getVerifiedDomain(domain) {
      const row = await db.selectFrom(t.ssoDomains).selectAll().where("domain", "=", domain).where("verified_at", "is not", null).orderBy("verified_at").executeTakeFirst()
      return row ? toDomain(row) : null
    },
    async listDomains(organizationId) {
      const rows = await db.selectFrom(t.ssoDomains).selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("domain").execute()
      return rows.map(toDomain)
    },
    async verifyDomain(organizationId, domain, verifiedAt) {
      return retrying(async (trx) => {
        await holdDomain(trx, domain)
        const current = await domainRow(trx, organizationId, domain)
        if (!current) return null
        if (await verifiedElsewhere(trx, organizationId, domain, true)) return DOMAIN_TAKEN
        await trx.updateTable(t.ssoDomains).set({ verified_at: codec.instant(verifiedAt) }).where("organization_id", "=", organizationId).where("domain", "=", domain).execute()
        return { ...current, verifiedAt: new Date(verifiedAt.getTime()) }
      })
    },
    async updateDomain(organizationId, domain, changes) {
      await db.updateTable(t.ssoDomains).set({ enforce_sso: codec.bool(changes.enforceSso) }).where("organization_id", "=", organizationId).where("domain", "=", domain).execute()
      return domainRow(db, organizationId, domain)
    },
    async deleteDomain(organizationId, domain) {
      await db.deleteFrom(t.ssoDomains).where("organization_id", "=", organizationId).where("domain", "=", domain).execute()
    },
  }
}

/** Migration 0008: SSO connections and claimed domains (additive: nothing else changes). */
export function ssoMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.ssoConnections)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("organization_id", type.key, (c) => c.notNull().references(`${t.organizations}.id`).onDelete("cascade"))
        .addColumn("type", type.key, (c) => c.notNull())
        .addColumn("name", type.text, (c) => c.notNull())
        .addColumn("enabled", type.boolean, (c) => c.notNull())
        .addColumn("settings", type.text, (c) => c.notNull())
        .addColumn("mapping", type.text)
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("updated_at", type.instant, (c) => c.notNull())
        .execute()
      await db.schema.createIndex(t.index.ssoConnectionsOrganizationId).on(t.ssoConnections).column("organization_id").execute()
      await db.schema
        .createTable(t.ssoDomains)
        // The primary key (organization_id first) is also the index listing an organization's domains.
        .addColumn("organization_id", type.key, (c) => c.notNull().references(`${t.organizations}.id`).onDelete("cascade"))
        .addColumn("domain", type.email, (c) => c.notNull())
        .addColumn("token", type.key, (c) => c.notNull())
        .addColumn("verified_at", type.instant)
        .addColumn("enforce_sso", type.boolean, (c) => c.notNull())
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addPrimaryKeyConstraint(t.index.ssoDomainsPk, ["organization_id", "domain"])
        .execute()
      await db.schema.createIndex(t.index.ssoDomainsDomain).on(t.ssoDomains).column("domain").execute()
      if (kind !== "mysql") {
        await db.schema.createIndex(t.index.ssoDomainsVerifiedUnique).on(t.ssoDomains).column("domain").unique().where(sql.ref("verified_at"), "is not", null).execute()
      }
    },
    async down(db: AnyDb) {
      for (const table of [t.ssoDomains, t.ssoConnections]) await db.schema.dropTable(table).ifExists().execute()
    },
  }
}
