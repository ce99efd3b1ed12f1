/**
 * The app the account page's browser journey (issue #15) runs against: every way the page offers
 * to manage at once. Users, accounts, database sessions, passkeys and tokens in the real
 * PostgreSQL under a table prefix of its own (dropped on close); magic links and email-change
 * links through a real SMTP sink; the local OpenID provider of examples/oauth to connect; passkeys.
 * Served on 127.0.0.1 and a free port, reached as http://localhost:<port> (WebAuthn wants a host
 * name). The package is used as an app would (`gatehouse`, built to dist/).
 */
import { randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express, { type Express } from "express"
import { sql } from "kysely"
import { authRouter, authSession, requireAuth } from "gatehouse"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "gatehouse/adapters/sql"
import Nodemailer from "gatehouse/providers/nodemailer"
import OIDC from "gatehouse/providers/oidc"
import Passkey from "gatehouse/providers/passkey"
import { startSmtp, type SmtpSink } from "../../helpers/smtp.js"
import { quietOidcProvider } from "./oauth-example.js"

// A specifier in a variable: the local IdP is plain JavaScript without type declarations.
const LOCAL_IDP_MODULE = "../../../examples/oauth/local-idp.js"
const POSTGRES_URL = process.env.GATEHOUSE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"
export const LOCAL_PROVIDER = "Local IdP (demo)"

export interface AccountApp {
  /** http://localhost:<port> */
  origin: string
  /** The local OpenID provider's issuer (its login page: `logInAtLocalIdp`). */
  idpIssuer: string
  smtp: SmtpSink
  adapter: SqlAdapterInstance
  prefix: string
  /** Rows in each of Gatehouse's tables (the migration bookkeeping left out), by table name. */
  rowCounts(): Promise<Record<string, number>>
  close(): Promise<void>
}

export async function startAccountApp(): Promise<AccountApp> {
  quietOidcProvider()
  const site: { app?: Express } = {}
  const server: Server = createServer((req, res) => site.app!(req, res))
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`
  const smtp = await startSmtp()
  const clientId = "gatehouse-account-e2e"
  const clientSecret = randomBytes(24).toString("hex")
  const { startLocalIdp } = (await import(LOCAL_IDP_MODULE)) as {
    startLocalIdp(options: { port: number; clientId: string; clientSecret: string; redirectUris: string[] }): Promise<{ issuer: string; close(): Promise<void> }>
  }
  const idp = await startLocalIdp({ port: 0, clientId, clientSecret, redirectUris: [`${origin}/auth/callback/local`] })
  const prefix = `e2e_acct_${randomBytes(4).toString("hex")}_`
  const adapter = SqlAdapter(POSTGRES_URL, { tablePrefix: prefix })
  await migrate(adapter.db, { tablePrefix: prefix })

  const config = {
    adapter,
    secret: randomBytes(32).toString("hex"),
    logLevel: "silent" as const,
    providers: [
      Nodemailer({ server: smtp.url, from: "Gatehouse account test <no-reply@example.com>" }),
      Passkey(),
      OIDC({ id: "local", name: LOCAL_PROVIDER, issuer: idp.issuer, clientId, clientSecret, checks: ["pkce", "state", "nonce"] }),
    ],
  }
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/api/me", requireAuth(config), (req, res) => res.json(req.auth))
  site.app = app

  return {
    origin,
    idpIssuer: idp.issuer,
    smtp,
    adapter,
    prefix,
    async rowCounts() {
      const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and starts_with(table_name, ${prefix})`.execute(adapter.db)
      const counts: Record<string, number> = {}
      for (const { name } of tables.rows) {
        if (name.startsWith(`${prefix}gatehouse_migration`)) continue
        const counted = await sql<{ n: string }>`select count(*) as n from ${sql.table(name)}`.execute(adapter.db)
        counts[name.slice(prefix.length)] = Number(counted.rows[0]!.n)
      }
      return counts
    },
    async close() {
      await new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      })
      await idp.close()
      await smtp.close()
      await dropTables(adapter.db, { tablePrefix: prefix })
      await adapter.close()
    },
  }
}
