/**
 * The SQL adapter's cookie-session records and revocations (Gatehouse extensions: processes that
 * share only the database share cookie-session revocation), in two tables (migration
 * 0006_cookie_sessions, additive). Revocations are read by time (`created_at`, indexed: every
 * process polls "since") and by key (`subject`: a session id or a user id), both indexed, as is
 * `expires` (the sweep). Records are keyed by (user_id, sid). Expired ones are
 * deleted at most once a minute per adapter, when one is added.
 */
import type { Migration } from "kysely"
import type { Adapter, AdapterSessionRevocation } from "../../lib/adapters.js"
import { columnTypes, kindOf, optionalStr, str, type AnyDb, type Codec, type SqlKind } from "./codec.js"
import type { TableNames } from "./tables.js"

type CookieSessionMethods = Required<Pick<Adapter, "putCookieSession" | "listCookieSessions" | "deleteCookieSessions" | "addSessionRevocation" | "listSessionRevocations">>

const SWEEP_EVERY_MS = 60_000

const revocationKind = (kind: string): AdapterSessionRevocation["kind"] => (kind === "user" || kind === "spare" ? kind : "session")

export function cookieSessionMethods(db: AnyDb, t: TableNames, codec: Codec): CookieSessionMethods {
  const kind = kindOf(db)
  let sweptAt = 0
  const toRevocation = (row: Record<string, unknown>): AdapterSessionRevocation => ({
    id: str(row.id),
    kind: revocationKind(str(row.kind)),
    key: str(row.subject),
    notBefore: row.not_before === null || row.not_before === undefined ? null : codec.toDate(row.not_before),
    createdAt: codec.toDate(row.created_at),
    expires: codec.toDate(row.expires),
  })
  return {
    async putCookieSession(session) {
      const values = {
        sid: session.sid,
        user_id: session.userId,
        created_at: codec.instant(session.createdAt),
        last_seen_at: codec.instant(session.lastSeenAt),
        expires: codec.instant(session.expires),
        user_agent: session.userAgent,
        ip: session.ip,
        owner: session.owner ?? null,
      }
      const { sid: _sid, user_id: _user, created_at: _created, ...changes } = values
      const insert = db.insertInto(t.cookieSessions).values(values)
      if (kind === "mysql") await insert.onDuplicateKeyUpdate(changes).execute()
      else await insert.onConflict((conflict) => conflict.columns(["user_id", "sid"]).doUpdateSet(changes)).execute()
    },
    async listCookieSessions(userId) {
      const rows = await db.selectFrom(t.cookieSessions).selectAll().where("user_id", "=", userId).execute()
      return rows.map((row) => ({
        sid: str(row.sid),
        userId: str(row.user_id),
        createdAt: codec.toDate(row.created_at),
        lastSeenAt: codec.toDate(row.last_seen_at),
        expires: codec.toDate(row.expires),
        userAgent: optionalStr(row.user_agent),
        ip: optionalStr(row.ip),
        ...(row.owner !== null && row.owner !== undefined && { owner: str(row.owner) }),
      }))
    },
    async deleteCookieSessions(userId, sids) {
      if (!sids.length) return
      await db.deleteFrom(t.cookieSessions).where("user_id", "=", userId).where("sid", "in", sids).execute()
    },
    async addSessionRevocation(revocation) {
      const now = Date.now()
      if (now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now
        await db.deleteFrom(t.sessionRevocations).where("expires", "<=", codec.instant(new Date(now))).execute()
        await db.deleteFrom(t.cookieSessions).where("expires", "<=", codec.instant(new Date(now))).execute()
      }
      await db
        .insertInto(t.sessionRevocations)
        .values({
          id: revocation.id,
          kind: revocation.kind,
          subject: revocation.key,
          not_before: revocation.notBefore ? codec.instant(revocation.notBefore) : null,
          created_at: codec.instant(revocation.createdAt),
          expires: codec.instant(revocation.expires),
        })
        .execute()
    },
    async listSessionRevocations({ since, keys }) {
      if (keys && !keys.length) return []
      let query = db.selectFrom(t.sessionRevocations).selectAll().where("expires", ">", codec.instant(new Date()))
      if (since) query = query.where("created_at", ">=", codec.instant(since))
      if (keys) query = query.where("subject", "in", keys)
      return (await query.execute()).map(toRevocation)
    },
  }
}

/** Migration 0006: the cookie-session records and revocations tables (additive: nothing else changes). */
export function cookieSessionsMigration(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.cookieSessions)
        // One session may be recorded under several keys: its user, and for back-channel logout
        // the provider's session and subject (not a foreign key for that reason; `owner` then
        // names the user).
        .addColumn("user_id", type.key, (c) => c.notNull())
        .addColumn("sid", type.key, (c) => c.notNull())
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("last_seen_at", type.instant, (c) => c.notNull())
        .addColumn("expires", type.instant, (c) => c.notNull())
        .addColumn("user_agent", type.text)
        .addColumn("ip", type.text)
        .addColumn("owner", type.key)
        .addPrimaryKeyConstraint(t.index.cookieSessionsPk, ["user_id", "sid"])
        .execute()
      await db.schema.createIndex(t.index.cookieSessionsExpires).on(t.cookieSessions).column("expires").execute()
      await db.schema
        .createTable(t.sessionRevocations)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("kind", type.key, (c) => c.notNull())
        .addColumn("subject", type.key, (c) => c.notNull())
        .addColumn("not_before", type.instant)
        .addColumn("created_at", type.instant, (c) => c.notNull())
        .addColumn("expires", type.instant, (c) => c.notNull())
        .execute()
      await db.schema.createIndex(t.index.revocationsCreatedAt).on(t.sessionRevocations).column("created_at").execute()
      await db.schema.createIndex(t.index.revocationsSubject).on(t.sessionRevocations).column("subject").execute()
      await db.schema.createIndex(t.index.revocationsExpires).on(t.sessionRevocations).column("expires").execute()
    },
    async down(db: AnyDb) {
      for (const table of [t.sessionRevocations, t.cookieSessions]) await db.schema.dropTable(table).ifExists().execute()
    },
  }
}
