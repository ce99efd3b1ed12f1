/**
 * APP with every provider type at once (not a test file), for the suites that sweep every
 * endpoint: credentials (alice / bob), email (`nodemailer`, to a real SMTP sink on 127.0.0.1),
 * OIDC (`idp`, the honest `oidc-provider` on 127.0.0.1, PKCE + state + nonce) and passkeys
 * (`passkey`), stored by the SQL adapter in tables of their own (SQLite in memory by default;
 * PostgreSQL or MariaDB when asked). AUTH_URL=http://app.test:3000/auth, trustHost false, the
 * session strategy as asked. `rows()` counts every table (NO-WRITE) and `mails()` the sink.
 */
import { sql } from "kysely"
import type { Express } from "express"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import type { AuthConfig } from "../../lib/types.js"
import { credentials } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix, type DatabaseName } from "../helpers/databases.js"
import type { TestIdp } from "../helpers/idp.js"
import { startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { AUTH_URL, buildApp } from "./fixtures.js"
import { oidcProvider, startHonestIdp } from "./oauth/support.js"

export const PROVIDER_IDS = ["credentials", "nodemailer", "idp", "passkey"] as const

export interface RowCounts {
  users: number
  accounts: number
  sessions: number
  verification_tokens: number
  authenticators: number
}

export interface FullApp {
  app: Express
  config: AuthConfig
  adapter: SqlAdapterInstance
  smtp: SmtpSink
  idp: TestIdp
  rows(): Promise<RowCounts>
  /** Messages the SMTP sink has received so far. */
  mails(): number
  close(): Promise<void>
}

export interface FullAppOptions {
  strategy?: "cookie" | "database"
  database?: DatabaseName
  label?: string
  config?: Partial<AuthConfig>
}

const TABLES: Array<keyof RowCounts> = ["users", "accounts", "sessions", "verification_tokens", "authenticators"]

/** Starts the sink, the IdP and the database, then builds the app (AUTH_URL set while it is built). */
export async function startFullApp(options: FullAppOptions = {}): Promise<FullApp> {
  const database = options.database ?? "sqlite"
  const prefix = uniquePrefix(options.label ?? "full")
  const [smtp, idp, adapter] = await Promise.all([startSmtp(), startHonestIdp(["idp"]), openTestDatabase(database, prefix)])
  const config: Partial<AuthConfig> = {
    adapter,
    session: { strategy: options.strategy ?? "cookie" },
    providers: [credentials(), Nodemailer({ server: smtp.url, from: "no-reply@app.test" }), oidcProvider("idp", idp.issuer), Passkey()],
    ...options.config,
  }
  const built = buildApp(AUTH_URL, config)
  return {
    ...built,
    adapter,
    smtp,
    idp,
    async rows() {
      const counts = {} as RowCounts
      for (const table of TABLES) {
        const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(`${prefix}${table}`)}`.execute(adapter.db)
        counts[table] = Number(row.rows[0]?.n ?? 0)
      }
      return counts
    },
    mails: () => smtp.messages.length,
    async close() {
      await Promise.all([smtp.close(), idp.close(), closeTestDatabase(adapter, prefix)])
    },
  }
}
