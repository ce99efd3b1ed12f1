// Issue #36: the scenarios of bench/active-sessions.js. Each is a server with N active sessions
// seeded by the runner (bench/lib/seed.js), loaded with every request carrying the next session's
// cookie (round robin over all N, so a session comes back only after the N - 1 others).
//
// {
//   id, name, library,
//   server: "/abs/path/bench/servers/x.js",
//   env: { ... },                          // the server's environment
//   seed: async ({ origin, n }) => ({ cookies: [N Cookie headers], check: [[cookie, email], ...] }),
//   cleanup: async () => {},               // optional, after the server stopped
// }
// `check`: cookies that must answer 200 with that email before the load (the last seeded session,
// and for better-auth's cookie cache a session that has no row: only the cache can let it in).
import { tmpdir } from "node:os"
import { join } from "node:path"
import { rmSync } from "node:fs"
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { CookieJar, send } from "../lib/http.js"
import { GATEHOUSE_COOKIE, authjsSessions, betterAuthSessions, gatehouseCookies, gatehouseDatabaseSessions } from "../lib/seed.js"

const server = (file) => fileURLToPath(new URL(`../servers/${file}`, import.meta.url))
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const MARIADB_URL = process.env.BENCH_MARIADB_URL ?? "mysql://root@127.0.0.1:3306/test"
// The better-auth server's secret (bench/servers/better-auth.js).
const BETTER_AUTH_SECRET = "bench-better-auth-secret-0123456789abcdef"
const email = (i) => `user${i}@example.com`
const tag = process.pid.toString(36)

/** Signs in through Gatehouse's credentials flow; the session cookie's value. */
async function gatehouseSignIn(origin) {
  const jar = new CookieJar()
  const { csrfToken } = await (await send(jar, `${origin}/auth/csrf`)).json()
  const response = await send(jar, `${origin}/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: "bench@example.com", password: "bench", callbackUrl: "/protected" }).toString(),
  })
  const value = jar.cookies.get(GATEHOUSE_COOKIE)
  if (response.status !== 302 || !value) throw new Error(`Gatehouse sign-in answered ${response.status}`)
  return value
}

const lastOf = (cookies) => [[cookies.at(-1), email(cookies.length - 1)]]

function gatehouseCookie(id, name, env) {
  return {
    id,
    name,
    library: "gatehouse",
    server: server("gatehouse.js"),
    env: { BENCH_MODE: "cookie", ...env },
    seed: async ({ origin, n }) => {
      const cookies = await gatehouseCookies(n, await gatehouseSignIn(origin))
      return { cookies, check: lastOf(cookies) }
    },
  }
}

function gatehouseDatabase(id, name, mode) {
  const tablePrefix = `bas${tag}${mode[0]}_`
  const sqliteFile = join(tmpdir(), `gatehouse-active-${tag}.sqlite`)
  const url = mode === "pg" ? PG_URL : mode === "mariadb" ? MARIADB_URL : `sqlite:${sqliteFile}`
  return {
    id,
    name,
    library: "gatehouse",
    server: server("gatehouse.js"),
    env: { BENCH_MODE: mode, BENCH_TABLE_PREFIX: tablePrefix, BENCH_SQLITE_FILE: sqliteFile, BENCH_PG_URL: PG_URL, BENCH_MARIADB_URL: MARIADB_URL },
    seed: async ({ n }) => {
      const cookies = await gatehouseDatabaseSessions(n, url, tablePrefix)
      return { cookies, check: lastOf(cookies) }
    },
    cleanup: async () => (mode === "sqlite" ? rmSync(sqliteFile, { force: true }) : undefined),
  }
}

function betterAuth(id, name, cookieCache) {
  const schema = `bench_ba_${tag}_${cookieCache ? "cache" : "pg"}`
  return {
    id,
    name,
    library: "better-auth",
    server: server("better-auth.js"),
    env: { BENCH_BA_SCHEMA: schema, BENCH_PG_URL: PG_URL, ...(cookieCache && { BENCH_COOKIE_CACHE: "1" }) },
    seed: async ({ n }) => {
      const { cookies, withoutRow } = await betterAuthSessions(n, PG_URL, schema, BETTER_AUTH_SECRET, { cookieCache, extra: cookieCache ? 1 : 0 })
      return { cookies, check: [...lastOf(cookies), ...withoutRow.map((cookie) => [cookie, email(n)])] }
    },
  }
}

async function dropSchema(schema) {
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  } finally {
    await client.end()
  }
}

const authjsSchema = `bench_authjs_${tag}`

export default [
  // Bare Express gets N distinct cookies too, each the size of a Gatehouse session cookie (it reads
  // none): the load generator's own cost grows with N (N distinct headers to send), and a server
  // whose client is slower wakes for fewer requests at a time, each costing more CPU. The baseline
  // then carries the same request stream as the cookie-session scenarios at every N.
  { id: "bare", name: "bare Express", library: "bare", server: server("bare.js"), env: {}, seed: async ({ n }) => ({ cookies: Array.from({ length: n }, () => `${GATEHOUSE_COOKIE}=${randomBytes(310).toString("base64url")}`), check: [] }) },
  gatehouseCookie("gatehouse-cookie", "Gatehouse cookie session (revocation checks, in-process store)", {}),
  gatehouseCookie("gatehouse-cookie-redis", "Gatehouse cookie session (revocation checks on Redis)", { BENCH_STORE: "redis" }),
  gatehouseDatabase("gatehouse-pg", "Gatehouse database session, PostgreSQL", "pg"),
  gatehouseDatabase("gatehouse-sqlite", "Gatehouse database session, SQLite", "sqlite"),
  gatehouseDatabase("gatehouse-mariadb", "Gatehouse database session, MariaDB", "mariadb"),
  betterAuth("better-auth-cache", "better-auth, cookie cache (PostgreSQL behind it)", true),
  betterAuth("better-auth-pg", "better-auth, PostgreSQL session", false),
  {
    id: "authjs-pg",
    name: "Auth.js, @auth/pg-adapter database session",
    library: "authjs",
    server: server("authjs.js"),
    env: { BENCH_MODE: "pg", BENCH_AUTHJS_SCHEMA: authjsSchema, BENCH_PG_URL: PG_URL },
    seed: async ({ n }) => {
      const cookies = await authjsSessions(n, PG_URL, authjsSchema)
      return { cookies, check: lastOf(cookies) }
    },
    cleanup: () => dropSchema(authjsSchema),
  },
]
