/**
 * The SQL adapter's admin methods (issue #30) and their table (migration 0010_admin, additive):
 * `user_bans`, one row per banned user (the user id its primary key), gone with its user (a
 * foreign key with ON DELETE CASCADE, and `deleteUser` deletes it itself where foreign keys are
 * off).
 *
 * `listUsers` pages by keyset: users in email, then id order, as the database compares them (the
 * column's collation on PostgreSQL, bytes on MySQL's VARBINARY, SQLite's binary order), each page
 * starting after the last user of the previous one, so the unique index on email serves it and
 * a user added meanwhile is neither skipped nor repeated. Users without an email (stored as NULL,
 * read as "") come first, as "" sorts first: they are read by a query of their own, since the
 * engines disagree on where NULLs sort.
 */
import { sql, type SqlBool } from "kysely"
import type { Adapter, AdapterUser } from "../../lib/adapters.js"
import type { AdapterUserBan, UserListQuery } from "../../lib/admin/adapter.js"
import { kindOf, optionalStr, str, type AnyDb, type Codec } from "./codec.js"
import { toUser } from "./rows.js"
import type { TableNames } from "./tables.js"
import type { ADMIN_ADAPTER_METHODS } from "../../lib/admin/adapter.js"

type AdminMethods = Required<Pick<Adapter, (typeof ADMIN_ADAPTER_METHODS)[number]>>

type Row = Record<string, unknown>

/**
 * `search` as a LIKE pattern matching it anywhere, its own `%` and `_` taken literally: `!` is
 * the escape character (ESCAPE '!'), chosen over `\`, which MySQL string literals treat specially.
 */
const containsPattern = (search: string) => `%${search.replace(/[!%_]/g, "!$&")}%`

export function adminMethods(db: AnyDb, t: TableNames, codec: Codec): AdminMethods {
  const kind = kindOf(db)
  // MySQL keeps emails in VARBINARY, which has no letter case: read as text to compare ignoring it.
  const emailText = kind === "mysql" ? sql`convert(${sql.ref("email")} using utf8mb4)` : sql.ref("email")

  /** Users matching `search` (exact id, or email or name containing it, ignoring case). */
  const users = (search: string | undefined) => {
    const query = db.selectFrom(t.users).selectAll()
    if (search === undefined) return query
    const pattern = containsPattern(search)
    return query.where((eb) =>
      eb.or([
        eb("id", "=", search),
        sql<SqlBool>`lower(${emailText}) like lower(${pattern}) escape '!'`,
        sql<SqlBool>`lower(${sql.ref("name")}) like lower(${pattern}) escape '!'`,
      ]),
    )
  }

  const toBan = (row: Row): AdapterUserBan => ({
    userId: str(row.user_id),
    reason: optionalStr(row.reason),
    expires: row.expires === null || row.expires === undefined ? null : codec.toDate(row.expires),
    createdAt: codec.toDate(row.created_at),
    bannedBy: optionalStr(row.banned_by),
  })

  return {
    async listUsers({ search, after, limit }: UserListQuery) {
      const found: AdapterUser[] = []
      // The users without an email, by id, when the page starts among them.
      if (!after || after.email === "") {
        let query = users(search).where("email", "is", null)
        if (after) query = query.where("id", ">", after.id)
        const rows = await query.orderBy("id").limit(limit).execute()
        found.push(...rows.map((row) => toUser(row, codec)))
      }
      if (found.length < limit) {
        let query = users(search)
        if (after && after.email !== "") {
          const { email, id } = after
          query = query.where((eb) => eb.or([eb("email", ">", email), eb.and([eb("email", "=", email), eb("id", ">", id)])]))
        } else query = query.where("email", "is not", null)
        const rows = await query
          .orderBy("email")
          .orderBy("id")
          .limit(limit - found.length)
          .execute()
        found.push(...rows.map((row) => toUser(row, codec)))
      }
      return found
    },
    async getUserBan(userId) {
      const row = await db.selectFrom(t.userBans).selectAll().where("user_id", "=", userId).executeTakeFirst()
      return row ? toBan(row) : null
    },
    async putUserBan(ban) {
      const fields = {
        reason: ban.reason ?? null,
        expires: ban.expires ? codec.instant(ban.expires) : null,
        created_at: codec.instant(ban.createdAt),
        banned_by: ban.bannedBy ?? null,
      }
      // One statement, so two admins banning the same user at once leave one ban (the later one).
      const insert = db.insertInto(t.userBans).values({ user_id: ban.userId, ...fields })
      if (kind === "mysql") await insert.onDuplicateKeyUpdate(fields).execute()
      else await insert.onConflict((conflict) => conflict.column("user_id").doUpdateSet(fields)).execute()
    },
    async deleteUserBan(userId) {
      const result = await db.deleteFrom(t.userBans).where("user_id", "=", userId).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}
