// Gatehouse as an app would mount it: the router at /auth, a credentials user, and GET /protected
// behind requireAuth. BENCH_MODE: `cookie` (sealed cookie sessions, no database), `pg` or `sqlite`
// (the SQL adapter, database sessions; its own tables, dropped on stop).
import { rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import express from "express"
import { authRouter, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { SqlAdapter, dropTables, migrate } from "gatehouse/adapters/sql"
import { serve } from "../lib/serve.js"

const USER = { id: "bench-user", name: "Bench User", email: "bench@example.com" }
const mode = process.env.BENCH_MODE ?? "cookie"
const tablePrefix = `bench_gh_${process.pid}_`
const sqliteFile = join(tmpdir(), `gatehouse-bench-${process.pid}.sqlite`)

async function openAdapter() {
  if (mode === "cookie") return undefined
  const url = mode === "pg" ? (process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test") : `sqlite:${sqliteFile}`
  const adapter = SqlAdapter(url, { tablePrefix })
  await migrate(adapter.db, { tablePrefix })
  return adapter
}

const adapter = await openAdapter()
const config = {
  secret: "gatehouse-bench-secret-0123456789abcdef",
  trustHost: true,
  // The load generator signs in thousands of times from one address: measure the work, not the
  // limiter's refusals (on by default in production, which the bench runs in).
  rateLimit: false,
  adapter,
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: ({ email, password }) => (email === USER.email && password === "bench" ? USER : null),
    }),
  ],
}

const app = express()
app.use("/auth", authRouter(config))
app.get("/protected", requireAuth(config), (req, res) => {
  res.json({ email: req.auth.user.email })
})

serve(app, {
  close: async () => {
    if (!adapter) return
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
    if (mode === "sqlite") rmSync(sqliteFile, { force: true })
  },
})
