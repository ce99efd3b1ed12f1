// better-auth 1.7 on Express 5, as its documentation sets it up: email and password, PostgreSQL
// through its built-in Kysely dialect (a pg Pool), the handler at /api/auth, and GET /protected
// with one `auth.api.getSession` call.
//
// BENCH_COOKIE_CACHE=1: its cookie cache on (`session.cookieCache`, the default "compact" strategy:
//                       an HMAC-signed copy of the session in the `session_data` cookie, read
//                       instead of the database while it is fresh). Its `maxAge` is one hour
//                       instead of five minutes, so no cached copy expires during a run.
// BENCH_BA_SCHEMA:      the PostgreSQL schema of its tables (made and migrated here, dropped on
//                       stop); the runner seeds sessions into it directly (bench/lib/seed.js).
//
// GET /protected answers 200 { email } for a signed-in user, 401 otherwise.
import express from "express"
import pg from "pg"
import { betterAuth } from "better-auth"
import { getMigrations } from "better-auth/db/migration"
import { fromNodeHeaders, toNodeHandler } from "better-auth/node"
import { serve } from "../lib/serve.js"
import { withOrigin } from "../lib/with-origin.js"

export const BETTER_AUTH_SECRET = "bench-better-auth-secret-0123456789abcdef"
const connectionString = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const schema = process.env.BENCH_BA_SCHEMA ?? `bench_ba_${process.pid}`
if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`)
const cookieCache = process.env.BENCH_COOKIE_CACHE === "1"

const admin = new pg.Client({ connectionString })
await admin.connect()
await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
await admin.query(`CREATE SCHEMA ${schema}`)
await admin.end()

const pool = new pg.Pool({ connectionString, options: `-c search_path=${schema}` })

async function build(origin) {
  const options = {
    secret: BETTER_AUTH_SECRET,
    baseURL: origin,
    database: pool,
    emailAndPassword: { enabled: true },
    // The load generator signs in from one address: measure the work, not the limiter.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    ...(cookieCache && { session: { cookieCache: { enabled: true, maxAge: 3600 } } }),
  }
  const { runMigrations } = await getMigrations(options)
  await runMigrations()
  const auth = betterAuth(options)
  const app = express()
  app.all("/api/auth/{*rest}", toNodeHandler(auth))
  app.get("/protected", async (req, res) => {
    const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) })
    if (!session?.user) return res.status(401).json({ error: "unauthorized" })
    res.json({ email: session.user.email })
  })
  return app
}

serve(withOrigin(build), {
  close: async () => {
    await pool.end()
    const client = new pg.Client({ connectionString })
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await client.end()
  },
})
