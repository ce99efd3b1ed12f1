/**
 * `gatehouse/adapters/sql`: one adapter for PostgreSQL (pg), MySQL/MariaDB (mysql2) and SQLite
 * (better-sqlite3), on Kysely. `SqlAdapter(db)` takes a Kysely instance or a connection URL;
 * `migrate(db)` creates or updates the tables (also `npx gatehouse migrate <url>`).
 *
 * Atomic where it matters: `useVerificationToken` hands a token to exactly one of concurrent
 * callers (DELETE ... RETURNING, or SELECT ... FOR UPDATE then DELETE on MySQL); `transaction`
 * lets the core create a user and link its account together; `deleteUser` removes the user's
 * accounts, sessions, authenticators, memberships, SCIM records, ban, API keys and identity-provider
 * records in one transaction even where foreign keys are off; `lockUser` holds the user's row (SELECT ... FOR UPDATE; on SQLite the write lock) for the rest
 * of a transaction, so two removals of a user's ways to sign in run one after the other.
 */
import { randomUUID } from "node:crypto"
import type { CompiledQuery } from "kysely"
import type { Adapter, AdapterUser } from "../../lib/adapters.js"
import type { SessionMessageMethod, TransactionalAdapter } from "../../lib/core/adapter.js"
import { codecFor, kindOf, type AnyDb } from "./codec.js"
import { openDatabase, prepareStatement } from "./connect.js"
import { sessionMessages } from "./notify.js"
import {
  accountColumns,
  authenticatorColumns,
  toAccount,
  toAuthenticator,
  sessionFactColumns,
  toSession,
  toUser,
  toVerificationToken,
  userColumns,
} from "./rows.js"
import { dropSchema, migrateToLatest } from "./schema.js"
import { tableNames, type TableNames, type TableOptions } from "./tables.js"

export { MAX_TABLE_PREFIX_LENGTH } from "./tables.js"
import { twoFactorMethods } from "./two-factor.js"
import { passwordMethods } from "./passwords.js"
import { cookieSessionMethods } from "./cookie-sessions.js"
import { passkeyDetailMethods } from "./passkey-details.js"
import { organizationMethods } from "./organizations.js"
import { ssoMethods } from "./sso.js"
import { forgetScimUser, scimMethods } from "./scim.js"
import { adminMethods } from "./admin.js"
import { apiKeyMethods } from "./api-keys.js"
import { oidcRecordMethods } from "./identity-provider.js"

export type SqlAdapterOptions = TableOptions

export interface SqlAdapterInstance extends Required<Omit<TransactionalAdapter, "transaction" | SessionMessageMethod>> {
  transaction<T>(work: (adapter: Adapter) => Promise<T>): Promise<T>
  /** The Kysely instance in use (created from the URL, or the one you passed). */
  readonly db: AnyDb
  /** Closes the connection pool (and the listening connection) when the adapter opened it from a URL; a no-op otherwise. */
  close(): Promise<void>
  /**
   * PostgreSQL opened from a URL only (LISTEN/NOTIFY on a channel of the table prefix, see
   * notify.ts); undefined on MySQL/MariaDB, SQLite and over a Kysely instance you pass.
   */
  publishSessionMessage?(message: string): Promise<void>
  subscribeSessionMessages?(listener: (message: string) => void): Promise<void>
}

function build(db: AnyDb, t: TableNames, inTransaction: boolean): SqlAdapterInstance {
  const kind = kindOf(db)
  const codec = codecFor(kind)
  const returning = kind !== "mysql"
  // Runs `work` in a transaction (or in the one this adapter is bound to).
  const atomically = <T>(work: (trx: AnyDb) => Promise<T>): Promise<T> => (inTransaction ? work(db) : db.transaction().execute(work))
  let sessionAndUser: CompiledQuery | undefined

  /**
   * Deletes the one row matching `where` and returns it, atomically: of concurrent callers exactly
   * one gets it. DELETE ... RETURNING where the engine has it; on MySQL, SELECT ... FOR UPDATE then
   * DELETE in a transaction (the loser waits for the lock, then finds no row).
   */
  const take = async (table: string, where: Record<string, string>): Promise<Record<string, unknown> | undefined> => {
    const filter = <Q extends { where: (column: string, op: "=", value: string) => Q }>(query: Q) =>
      Object.entries(where).reduce((q, [column, value]) => q.where(column, "=", value), query)
    if (returning) return filter(db.deleteFrom(table)).returningAll().executeTakeFirst()
    return atomically(async (trx) => {
      const row = await filter(trx.selectFrom(table).selectAll()).forUpdate().executeTakeFirst()
      if (row) await filter(trx.deleteFrom(table)).execute()
      return row
    })
  }


  const getUser = async (id: string) => {
    const row = await db.selectFrom(t.users).selectAll().where("id", "=", id).executeTakeFirst()
    return row ? toUser(row, codec) : null
  }

  const adapter: SqlAdapterInstance = {
    db,
    close: async () => undefined,

    async createUser(user) {
      const id = user.id ?? randomUUID()
      await db.insertInto(t.users).values({ id, ...userColumns(user, codec) }).execute()
      return (await getUser(id)) as AdapterUser
    },
    getUser,
    async getUserByEmail(email) {
      if (!email) return null
      const row = await db.selectFrom(t.users).selectAll().where("email", "=", email).executeTakeFirst()
      return row ? toUser(row, codec) : null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const row = await db
        .selectFrom(t.users)
        .innerJoin(t.accounts, `${t.accounts}.user_id`, `${t.users}.id`)
        .selectAll(t.users)
        .where(`${t.accounts}.provider`, "=", provider)
        .where(`${t.accounts}.provider_account_id`, "=", providerAccountId)
        .executeTakeFirst()
      return row ? toUser(row, codec) : null
    },
    async updateUser(user) {
      const columns = userColumns(user, codec)
      if (Object.keys(columns).length) await db.updateTable(t.users).set(columns).where("id", "=", user.id).execute()
      const updated = await getUser(user.id)
      if (!updated) throw new Error(`updateUser: no user with id ${user.id}`)
      return updated
    },
    async deleteUser(id) {
      return atomically(async (trx) => {
        const row = await trx.selectFrom(t.users).selectAll().where("id", "=", id).executeTakeFirst()
        for (const table of [t.accounts, t.sessions, t.authenticators, t.recoveryCodes, t.twoFactor, t.passwords, t.members, t.userBans, t.apiKeys]) {
          await trx.deleteFrom(table).where("user_id", "=", id).execute()
        }
        // What the identity provider (issue #32) kept about the user, of every model (no foreign key).
        await trx.deleteFrom(t.oidcRecords).where("account_id", "=", id).execute()
        // Provisioned (SCIM) records of every organization, and the user's places in their groups.
        await forgetScimUser(trx, t, id)
        const user = row ? toUser(row, codec) : null
        // Sign-in links (and codes) still out for the user's address die with the user.
        if (user?.email) await trx.deleteFrom(t.verificationTokens).where("identifier", "=", user.email).execute()
        await trx.deleteFrom(t.users).where("id", "=", id).execute()
        return user
      })
    },

    async linkAccount(account) {
      await db.insertInto(t.accounts).values({ id: randomUUID(), ...accountColumns(account) }).execute()
      return account
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const where = db.selectFrom(t.accounts).selectAll().where("provider", "=", provider).where("provider_account_id", "=", providerAccountId)
      const row = await where.executeTakeFirst()
      await db.deleteFrom(t.accounts).where("provider", "=", provider).where("provider_account_id", "=", providerAccountId).execute()
      return row ? toAccount(row) : undefined
    },
    async getAccount(providerAccountId, provider) {
      const row = await db
        .selectFrom(t.accounts)
        .selectAll()
        .where("provider", "=", provider)
        .where("provider_account_id", "=", providerAccountId)
        .executeTakeFirst()
      return row ? toAccount(row) : null
    },
    async listAccountsByUserId(userId) {
      const rows = await db.selectFrom(t.accounts).selectAll().where("user_id", "=", userId).execute()
      return rows.map(toAccount)
    },
    async updateAccountTokens({ provider, providerAccountId }, tokens) {
      // The token fields are columns of the same names.
      const set = Object.fromEntries(Object.entries(tokens).filter(([, value]) => value !== undefined))
      if (Object.keys(set).length) {
        await db.updateTable(t.accounts).set(set).where("provider", "=", provider).where("provider_account_id", "=", providerAccountId).execute()
      }
      const row = await db.selectFrom(t.accounts).selectAll().where("provider", "=", provider).where("provider_account_id", "=", providerAccountId).executeTakeFirst()
      return row ? toAccount(row) : null
    },

    async createSession(session) {
      await db
        .insertInto(t.sessions)
        .values({ id: randomUUID(), session_token: session.sessionToken, user_id: session.userId, expires: codec.instant(session.expires), ...sessionFactColumns(session, codec) })
        .execute()
      return { ...session }
    },
    async getSessionAndUser(sessionToken) {
      // Every request of a database session runs this: compiled once, then only the token changes.
      sessionAndUser ??= db
        .selectFrom(t.sessions)
        .innerJoin(t.users, `${t.users}.id`, `${t.sessions}.user_id`)
        // Named columns, not users.*: a column an app adds to its users table later must not
        // change the prepared statement's result (PostgreSQL refuses that on a live connection).
        .select([`${t.users}.id`, `${t.users}.name`, `${t.users}.email`, `${t.users}.email_verified`, `${t.users}.image`])
        // created_at: when the user signed in (`auth.authTime`, step-up; issue #16).
        .select([`${t.sessions}.session_token`, `${t.sessions}.user_id`, `${t.sessions}.expires`, `${t.sessions}.created_at`])
        .where(`${t.sessions}.session_token`, "=", "")
        .compile()
      prepareStatement(db, sessionAndUser.sql)
      const { rows } = await db.executeQuery<Record<string, unknown>>({ ...sessionAndUser, parameters: [sessionToken] })
      const row = rows[0]
      return row ? { session: toSession(row, codec), user: toUser(row, codec) } : null
    },
    async updateSession(session) {
      const columns: Record<string, unknown> = {}
      if (session.expires) columns.expires = codec.instant(session.expires)
      if (session.userId) columns.user_id = session.userId
      Object.assign(columns, sessionFactColumns(session, codec))
      if (Object.keys(columns).length) await db.updateTable(t.sessions).set(columns).where("session_token", "=", session.sessionToken).execute()
      const row = await db.selectFrom(t.sessions).selectAll().where("session_token", "=", session.sessionToken).executeTakeFirst()
      return row ? toSession(row, codec) : null
    },
    async deleteSession(sessionToken) {
      const row = await take(t.sessions, { session_token: sessionToken })
      return row ? toSession(row, codec) : null
    },
    async listSessionsByUserId(userId) {
      const rows = await db.selectFrom(t.sessions).selectAll().where("user_id", "=", userId).execute()
      return rows.map((row) => toSession(row, codec))
    },
    async deleteSessionsByUserId(userId, options) {
      let query = db.deleteFrom(t.sessions).where("user_id", "=", userId)
      if (options?.except !== undefined) query = query.where("session_token", "<>", options.except)
      const result = await query.executeTakeFirst()
      return Number(result.numDeletedRows)
    },

    async createVerificationToken(token) {
      await db.insertInto(t.verificationTokens).values({ identifier: token.identifier, token: token.token, expires: codec.instant(token.expires) }).execute()
      return { ...token }
    },
    async useVerificationToken({ identifier, token }) {
      const row = await take(t.verificationTokens, { identifier, token })
      return row ? toVerificationToken(row, codec) : null
    },

    async getAuthenticator(credentialID) {
      const row = await db.selectFrom(t.authenticators).selectAll().where("credential_id", "=", credentialID).executeTakeFirst()
      return row ? toAuthenticator(row, codec) : null
    },
    async createAuthenticator(authenticator) {
      await db.insertInto(t.authenticators).values(authenticatorColumns(authenticator, codec)).execute()
      return { ...authenticator }
    },
    async listAuthenticatorsByUserId(userId) {
      const rows = await db.selectFrom(t.authenticators).selectAll().where("user_id", "=", userId).execute()
      return rows.map((row) => toAuthenticator(row, codec))
    },
    async deleteAuthenticator(credentialID) {
      const row = await db.selectFrom(t.authenticators).selectAll().where("credential_id", "=", credentialID).executeTakeFirst()
      if (!row) return null
      await db.deleteFrom(t.authenticators).where("credential_id", "=", credentialID).execute()
      return toAuthenticator(row, codec)
    },
    async lockUser(userId) {
      // Held until the transaction this adapter is bound to ends; outside one there is nothing to hold.
      if (!inTransaction) return
      // SQLite locks the whole database: a write takes its write lock now (a read would not).
      if (kind === "sqlite") await db.updateTable(t.users).set({ id: userId }).where("id", "=", userId).execute()
      else await db.selectFrom(t.users).select("id").where("id", "=", userId).forUpdate().execute()
    },
    async updateAuthenticatorCounter(credentialID, counter) {
      // Never lowered: a slower request with an older counter must not undo a newer one.
      await db.updateTable(t.authenticators).set({ counter }).where("credential_id", "=", credentialID).where("counter", "<", counter).execute()
      const row = await db.selectFrom(t.authenticators).selectAll().where("credential_id", "=", credentialID).executeTakeFirst()
      if (!row) throw new Error(`updateAuthenticatorCounter: no authenticator ${credentialID}`)
      return toAuthenticator(row, codec)
    },

    ...twoFactorMethods(db, t, codec, atomically),
    ...passwordMethods(db, t, codec, atomically),
    ...cookieSessionMethods(db, t, codec),
    ...passkeyDetailMethods(db, t, codec),
    ...organizationMethods(db, t, codec, atomically, take, inTransaction),
    ...ssoMethods(db, t, codec, atomically, inTransaction),
    ...scimMethods(db, t, codec, atomically, inTransaction),
    ...adminMethods(db, t, codec),
    ...apiKeyMethods(db, t, codec, take),
    ...oidcRecordMethods(db, t, codec),

    async transaction(work) {
      if (inTransaction) return work(adapter)
      return db.transaction().execute((trx) => work(build(trx, t, true)))
    },
  }
  return adapter
}

/** The adapter over `db`: a Kysely instance, or a connection URL (the pool is then yours to `close()`). */
export function SqlAdapter(db: AnyDb | string, options: SqlAdapterOptions = {}): SqlAdapterInstance {
  // The prefix is checked before anything is opened: a name too long for an engine is refused here.
  const t = tableNames(options)
  if (typeof db !== "string") return build(db, t, false)
  const opened = openDatabase(db)
  const adapter = build(opened, t, false)
  // Sign-outs and revocations told to the other processes at once (issue #36): PostgreSQL only.
  const messages = kindOf(opened) === "postgres" ? sessionMessages(opened, db, options.tablePrefix ?? "") : undefined
  const close = async () => {
    await messages?.close()
    await opened.destroy()
  }
  if (!messages) return Object.assign(adapter, { close })
  return Object.assign(adapter, { close, publishSessionMessage: messages.publish, subscribeSessionMessages: messages.subscribe })
}

/** Creates or updates the tables. Returns the migrations applied (empty when up to date). */
export async function migrate(db: AnyDb | string, options: SqlAdapterOptions = {}): Promise<string[]> {
  const t = tableNames(options)
  if (typeof db !== "string") return migrateToLatest(db, t)
  const opened = openDatabase(db)
  try {
    return await migrateToLatest(opened, t)
  } finally {
    await opened.destroy()
  }
}

/** Drops Gatehouse's tables. For tests and uninstalling; the data is gone. */
export async function dropTables(db: AnyDb, options: SqlAdapterOptions = {}): Promise<void> {
  await dropSchema(db, tableNames(options))
}

export default SqlAdapter
