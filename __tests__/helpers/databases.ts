/**
 * The real databases of this machine (PostgreSQL, MariaDB) and SQLite, for adapter tests. Each
 * test file gets its own table prefix, so files running in parallel never share rows; the
 * first connection is retried while a service is still starting (CI starts them just before).
 */
import { randomBytes } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import type { AdapterContractOptions, BackDoor } from "../../adapters/test-kit/index.js"

export const DATABASES = {
  sqlite: "sqlite::memory:",
  postgres: process.env.GATEHOUSE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  mariadb: process.env.GATEHOUSE_TEST_MARIADB_URL ?? "mysql://root@127.0.0.1:3306/test",
} as const

export type DatabaseName = keyof typeof DATABASES

export function uniquePrefix(label: string): string {
  return `t_${label}_${randomBytes(4).toString("hex")}_`
}

/** Opens the database, retrying the first connection for up to ~20 s. */
export async function openTestDatabase(name: DatabaseName, tablePrefix: string): Promise<SqlAdapterInstance> {
  let lastError: unknown
  for (let attempt = 0; attempt < 40; attempt++) {
    const adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    try {
      await sql`select 1`.execute(adapter.db)
      await migrate(adapter.db, { tablePrefix })
      return adapter
    } catch (error) {
      lastError = error
      await adapter.close().catch(() => undefined)
      await new Promise((resume) => setTimeout(resume, 500))
    }
  }
  throw new Error(`${name} is not reachable at ${DATABASES[name]}`, { cause: lastError })
}

export async function closeTestDatabase(adapter: SqlAdapterInstance, tablePrefix: string): Promise<void> {
  await dropTables(adapter.db, { tablePrefix })
  await adapter.close()
}

const text = (value: unknown) => (Buffer.isBuffer(value) ? value.toString("utf8") : value === null || value === undefined ? null : String(value))
const instant = (value: unknown) => (value instanceof Date ? value : new Date(Number(value)))

/** Reads rows with plain SQL through Kysely, not through the adapter's queries or mappers. */
export function sqlBackDoor(adapter: SqlAdapterInstance, prefix: string): BackDoor {
  const db = adapter.db
  return {
    async user(id) {
      const row = await db.selectFrom(`${prefix}users`).selectAll().where("id", "=", id).executeTakeFirst()
      return row ? { id: text(row.id) as string, email: text(row.email) ?? "", name: text(row.name) } : null
    },
    async account(provider, providerAccountId) {
      const row = await db.selectFrom(`${prefix}accounts`).selectAll().where("provider", "=", provider).where("provider_account_id", "=", providerAccountId).executeTakeFirst()
      return row ? { userId: text(row.user_id) as string, access_token: text(row.access_token) ?? undefined } : null
    },
    async session(sessionToken) {
      const row = await db.selectFrom(`${prefix}sessions`).selectAll().where("session_token", "=", sessionToken).executeTakeFirst()
      return row ? { userId: text(row.user_id) as string, expires: instant(row.expires) } : null
    },
    async verificationToken(identifier, token) {
      const row = await db.selectFrom(`${prefix}verification_tokens`).selectAll().where("identifier", "=", identifier).where("token", "=", token).executeTakeFirst()
      return row ? { expires: instant(row.expires) } : null
    },
    async authenticator(credentialID) {
      const row = await db.selectFrom(`${prefix}authenticators`).selectAll().where("credential_id", "=", credentialID).executeTakeFirst()
      if (!row) return null
      return { userId: text(row.user_id) as string, counter: Number(row.counter), name: text(row.name), lastUsedAt: row.last_used_at === null ? null : instant(row.last_used_at) }
    },
  }
}

/** Runs the adapter contract on the SQL adapter with `name`, in tables of its own. */
export function runSqlContract(name: DatabaseName, run: (label: string, options: AdapterContractOptions) => void): void {
  const prefix = uniquePrefix(name)
  let adapter: SqlAdapterInstance
  const backDoor = () => sqlBackDoor(adapter, prefix)
  run(`SqlAdapter on ${name}`, {
    setup: async () => {
      adapter = await openTestDatabase(name, prefix)
    },
    adapter: () => adapter,
    db: {
      user: (id) => backDoor().user(id),
      account: (provider, id) => backDoor().account(provider, id),
      session: (token) => backDoor().session(token),
      verificationToken: (identifier, token) => backDoor().verificationToken(identifier, token),
      authenticator: (id) => backDoor().authenticator(id),
    },
    teardown: () => closeTestDatabase(adapter, prefix),
  })
}
