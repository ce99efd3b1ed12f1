// Auth.js (@auth/express 0.12, @auth/core 0.41) on Express 5, as its documentation sets it up.
//
// BENCH_MODE=cookie: Credentials provider (bench@example.com / bench), JWT (cookie) sessions.
// BENCH_MODE=pg:     @auth/pg-adapter on PostgreSQL, database sessions; sign-in by Auth.js's email
//                    (magic link) flow, whose link is kept in memory for the bench instead of mailed
//                    and handed out by GET /__bench/last-link?email=... (this mode only).
//
// GET /protected answers 200 { email } for a signed-in user, 401 otherwise (one getSession call).
import express from "express"
import { ExpressAuth, getSession } from "@auth/express"
import Credentials from "@auth/express/providers/credentials"
import Nodemailer from "@auth/express/providers/nodemailer"
import PostgresAdapter from "@auth/pg-adapter"
import pg from "pg"
import { serve } from "../lib/serve.js"

const MODE = process.env.BENCH_MODE ?? "cookie"
const SECRET = "bench-secret-bench-secret-bench-secret-0123456789"
const USER = { email: "bench@example.com", password: "bench" }

const app = express()
// As @auth/express's documentation does (it only matters behind a proxy; here nothing forwards).
app.set("trust proxy", true)

let close
const config = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
}

if (MODE === "cookie") {
  config.session = { strategy: "jwt" }
  config.providers = [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize({ email, password }) {
        if (email !== USER.email || password !== USER.password) return null
        return { id: "1", name: "Bench", email: USER.email }
      },
    }),
  ]
} else if (MODE === "pg") {
  const connectionString = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"
  const schema = process.env.BENCH_AUTHJS_SCHEMA ?? "bench_authjs"
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`)
  await createSchema(connectionString, schema)
  const pool = new pg.Pool({ connectionString, options: `-c search_path=${schema}` })
  close = () => pool.end()

  /** email → the last magic link Auth.js asked to send (never mailed). */
  const links = new Map()
  config.adapter = PostgresAdapter(pool)
  config.session = { strategy: "database" }
  config.providers = [
    Nodemailer({
      server: "smtp://127.0.0.1:25", // never contacted: sendVerificationRequest below does not mail
      from: "bench@example.com",
      async sendVerificationRequest({ identifier, url }) {
        links.set(identifier, url)
      },
    }),
  ]
  app.get("/__bench/last-link", (req, res) => {
    const link = links.get(String(req.query.email))
    if (!link) return res.status(404).json({ error: "no link" })
    res.json({ link })
  })
} else {
  throw new Error(`unknown BENCH_MODE ${MODE} (cookie | pg)`)
}

// Express 5 (path-to-regexp 8) refuses the documented "/auth/*"; mounted on "/auth", ExpressAuth
// derives basePath "/auth" from req.baseUrl.
app.use("/auth", ExpressAuth(config))

app.get("/protected", async (req, res) => {
  const session = await getSession(req, config)
  if (!session?.user) return res.status(401).json({ error: "unauthorized" })
  res.json({ email: session.user.email })
})

serve(app, { close })

/**
 * Creates `schema` with @auth/pg-adapter's tables as its documentation gives them, if missing.
 * Sessions and verification tokens left by earlier runs are removed, so every run reads the same
 * small tables (the documented schema has no index on "sessionToken").
 */
async function createSchema(connectionString, schema) {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    await client.query("BEGIN")
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [schema])
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${schema}.verification_token (
        identifier TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL,
        token TEXT NOT NULL,
        PRIMARY KEY (identifier, token)
      );
      CREATE TABLE IF NOT EXISTS ${schema}.accounts (
        id SERIAL,
        "userId" INTEGER NOT NULL,
        type VARCHAR(255) NOT NULL,
        provider VARCHAR(255) NOT NULL,
        "providerAccountId" VARCHAR(255) NOT NULL,
        refresh_token TEXT,
        access_token TEXT,
        expires_at BIGINT,
        id_token TEXT,
        scope TEXT,
        session_state TEXT,
        token_type TEXT,
        PRIMARY KEY (id)
      );
      CREATE TABLE IF NOT EXISTS ${schema}.sessions (
        id SERIAL,
        "userId" INTEGER NOT NULL,
        expires TIMESTAMPTZ NOT NULL,
        "sessionToken" VARCHAR(255) NOT NULL,
        PRIMARY KEY (id)
      );
      CREATE TABLE IF NOT EXISTS ${schema}.users (
        id SERIAL,
        name VARCHAR(255),
        email VARCHAR(255),
        "emailVerified" TIMESTAMPTZ,
        image TEXT,
        PRIMARY KEY (id)
      );
      DELETE FROM ${schema}.sessions;
      DELETE FROM ${schema}.verification_token;
    `)
    await client.query("COMMIT")
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw error
  } finally {
    await client.end()
  }
}
