/**
 * The schema, as Kysely migrations (run by `migrate(db)` or `npx gatehouse migrate <url>`), with
 * every constraint the core relies on: one user per email, one account per provider and
 * provider account id, one session per token, one verification token per identifier and token.
 */
import { Migrator, type Migration } from "kysely"
import { columnTypes, kindOf, type AnyDb, type SqlKind } from "./codec.js"
import type { TableNames } from "./tables.js"
import { passwordsMigration } from "./passwords.js"
import { cookieSessionsMigration } from "./cookie-sessions.js"
import { passkeyDetailsMigration } from "./passkey-details.js"
import { organizationsMigration } from "./organizations-schema.js"
import { ssoMigration } from "./sso.js"
import { scimMigration } from "./scim-schema.js"
import { adminMigration } from "./admin-schema.js"
import { apiKeysMigration } from "./api-keys-schema.js"
import { identityProviderMigration } from "./identity-provider-schema.js"

function initial(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.users)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("name", type.text)
        .addColumn("email", type.email, (c) => c.unique())
        .addColumn("email_verified", type.instant)
        .addColumn("image", type.text)
        .execute()
      await db.schema
        .createTable(t.accounts)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("user_id", type.key, (c) => c.notNull().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("type", type.key, (c) => c.notNull())
        .addColumn("provider", type.key, (c) => c.notNull())
        .addColumn("provider_account_id", type.key, (c) => c.notNull())
        .addColumn("refresh_token", type.text)
        .addColumn("access_token", type.text)
        .addColumn("expires_at", type.integer)
        .addColumn("token_type", type.text)
        .addColumn("scope", type.text)
        .addColumn("id_token", type.text)
        .addColumn("session_state", type.text)
        .addColumn("authorization_details", type.text)
        .addUniqueConstraint(t.index.accountsProviderUnique, ["provider", "provider_account_id"])
        .execute()
      await db.schema.createIndex(t.index.accountsUserId).on(t.accounts).column("user_id").execute()
      await db.schema
        .createTable(t.sessions)
        .addColumn("id", type.key, (c) => c.primaryKey())
        .addColumn("session_token", type.key, (c) => c.notNull().unique())
        .addColumn("user_id", type.key, (c) => c.notNull().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("expires", type.instant, (c) => c.notNull())
        .execute()
      await db.schema.createIndex(t.index.sessionsUserId).on(t.sessions).column("user_id").execute()
      await db.schema
        .createTable(t.verificationTokens)
        .addColumn("identifier", type.key, (c) => c.notNull())
        .addColumn("token", type.key, (c) => c.notNull())
        .addColumn("expires", type.instant, (c) => c.notNull())
        .addPrimaryKeyConstraint(t.index.verificationTokensPk, ["identifier", "token"])
        .execute()
      await db.schema
        .createTable(t.authenticators)
        .addColumn("credential_id", type.key, (c) => c.primaryKey())
        .addColumn("user_id", type.key, (c) => c.notNull().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("provider_account_id", type.key, (c) => c.notNull())
        .addColumn("credential_public_key", type.text, (c) => c.notNull())
        .addColumn("counter", type.integer, (c) => c.notNull())
        .addColumn("credential_device_type", type.key, (c) => c.notNull())
        .addColumn("credential_backed_up", type.boolean, (c) => c.notNull())
        .addColumn("transports", type.text)
        .execute()
      await db.schema.createIndex(t.index.authenticatorsUserId).on(t.authenticators).column("user_id").execute()
    },
    async down(db: AnyDb) {
      for (const table of [t.authenticators, t.verificationTokens, t.sessions, t.accounts, t.users]) {
        await db.schema.dropTable(table).ifExists().execute()
      }
    },
  }
}

/** The session facts listed to users (`listSessions`): when, from where, last seen. Nullable: sessions made before keep working. */
function sessionFacts(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  const columns = [["created_at", type.instant], ["last_seen_at", type.instant], ["user_agent", type.text], ["ip", type.text]] as const
  return {
    async up(db: AnyDb) {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      for (const [name, columnType] of columns) await db.schema.alterTable(t.sessions).addColumn(name, columnType).execute()
    },
    async down(db: AnyDb) {
      for (const [name] of columns) await db.schema.alterTable(t.sessions).dropColumn(name).execute()
    },
  }
}

/** Two-factor sign-in (issue #16): one TOTP record per user (its secret sealed) and hashed recovery codes. */
function twoFactor(kind: SqlKind, t: TableNames): Migration {
  const type = columnTypes(kind)
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable(t.twoFactor)
        .addColumn("user_id", type.key, (c) => c.primaryKey().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("secret", type.text, (c) => c.notNull())
        .addColumn("enabled_at", type.instant, (c) => c.notNull())
        .execute()
      await db.schema
        .createTable(t.recoveryCodes)
        .addColumn("user_id", type.key, (c) => c.notNull().references(`${t.users}.id`).onDelete("cascade"))
        .addColumn("code_hash", type.key, (c) => c.notNull())
        .addColumn("used_at", type.instant)
        .addPrimaryKeyConstraint(t.index.recoveryCodesPk, ["user_id", "code_hash"])
        .execute()
    },
    async down(db: AnyDb) {
      for (const table of [t.recoveryCodes, t.twoFactor]) await db.schema.dropTable(table).ifExists().execute()
    },
  }
}

function migrator(db: AnyDb, t: TableNames): Migrator {
  const kind = kindOf(db)
  return new Migrator({
    db,
    provider: { getMigrations: async () => ({ "0001_initial": initial(kind, t), "0002_session_facts": sessionFacts(kind, t), "0003_two_factor": twoFactor(kind, t), "0004_passwords": passwordsMigration(kind, t), "0005_passkey_details": passkeyDetailsMigration(kind, t), "0006_cookie_sessions": cookieSessionsMigration(kind, t), "0007_organizations": organizationsMigration(kind, t), "0008_sso": ssoMigration(kind, t), "0009_scim": scimMigration(kind, t), "0010_admin": adminMigration(kind, t), "0011_api_keys": apiKeysMigration(kind, t), "0012_identity_provider": identityProviderMigration(kind, t) }) },
    migrationTableName: t.migrations,
    migrationLockTableName: t.migrationLock,
  })
}

/** Brings the schema up to date; returns the names of the migrations it applied. */
export async function migrateToLatest(db: AnyDb, t: TableNames): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator(db, t).migrateToLatest()
    if (!error) return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName)
    if (attempt >= INTROSPECTION_ATTEMPTS || !isTableDroppedMidQuery(error)) throw error
    await pause(attempt)
  }
}

/**
 * Kysely's PostgreSQL introspector reads every table of the database to learn whether the
 * migration table exists, and fails with `undefined_table` when another client drops any table
 * while that query runs, or `invalid_schema_name` when it drops a whole schema (another app's
 * migration, a test suite cleaning up). Nothing has been
 * applied at that point and PostgreSQL runs each migration in a transaction, so trying again is
 * safe; a migration that itself names a missing table fails the same way each time and is thrown.
 */
const INTROSPECTION_ATTEMPTS = 12

/** A short, growing pause between tries, so a client dropping many tables one by one can finish. */
function pause(attempt: number): Promise<void> {
  return new Promise((resume) => setTimeout(resume, 20 * attempt))
}

const DROPPED_MID_QUERY: ReadonlySet<unknown> = new Set(["42P01", "3F000"])

function isTableDroppedMidQuery(error: unknown): boolean {
  return typeof error === "object" && error !== null && DROPPED_MID_QUERY.has((error as { code?: unknown }).code)
}

/**
 * Applies (or undoes) migrations up to `name` only (tests: a database as an earlier version left
 * it). Tried again, as `migrateToLatest`, when PostgreSQL's introspection met a table dropped meanwhile.
 */
export async function migrateTo(db: AnyDb, t: TableNames, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error } = await migrator(db, t).migrateTo(name)
    if (!error) return
    if (attempt >= INTROSPECTION_ATTEMPTS || !isTableDroppedMidQuery(error)) throw error
    await pause(attempt)
  }
}

/**
 * Removes Gatehouse's tables (for tests and uninstalling): every migration, undone. On PostgreSQL
 * in one transaction, so other clients see every table go at once (one moment in which their
 * catalog queries can meet a vanished table, not thirty).
 */
export async function dropSchema(db: AnyDb, t: TableNames): Promise<void> {
  if (kindOf(db) === "postgres") await db.transaction().execute((trx) => dropEachTable(trx, t))
  else await dropEachTable(db, t)
}

async function dropEachTable(db: AnyDb, t: TableNames): Promise<void> {
  const kind = kindOf(db)
  await identityProviderMigration(kind, t).down?.(db)
  await apiKeysMigration(kind, t).down?.(db)
  await adminMigration(kind, t).down?.(db)
  await scimMigration(kind, t).down?.(db)
  await ssoMigration(kind, t).down?.(db)
  await organizationsMigration(kind, t).down?.(db)
  await cookieSessionsMigration(kind, t).down?.(db)
  await passwordsMigration(kind, t).down?.(db)
  await twoFactor(kind, t).down?.(db)
  await initial(kind, t).down?.(db)
  await db.schema.dropTable(t.migrations).ifExists().execute()
  await db.schema.dropTable(t.migrationLock).ifExists().execute()
}
