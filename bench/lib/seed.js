// Issue #36: N active sessions, made without N sign-ins, each as the library itself would have made
// it, and the Cookie header a browser holding it would send. One user per session.
//
// - Gatehouse cookie sessions: the claims of a real credentials sign-in (bench/servers/gatehouse.js)
//   with another user and a fresh session id each, sealed with the package's own `encode`
//   (gatehouse/jwt, the same codec as the sign-in's).
// - Gatehouse database sessions: users and sessions rows written in bulk through the SQL adapter's
//   own Kysely handle (`SqlAdapter(url).db`), in the adapter's column encoding; the token is what
//   Gatehouse generates (64 hex characters).
// - better-auth: rows in its `user` and `session` tables, the session token cookie signed as
//   better-call signs it (value "." base64 HMAC-SHA256, URI-encoded), and for the cookie cache the
//   `session_data` cookie as better-auth's "compact" strategy writes it (base64url JSON of the
//   session, its expiry and a base64url HMAC-SHA256 of both).
// - Auth.js (@auth/pg-adapter): rows in its `users` and `sessions` tables; the cookie is the token.
import { createHmac, randomBytes, randomUUID } from "node:crypto"
import pg from "pg"
import { decode, encode } from "gatehouse/jwt"
import { SqlAdapter } from "gatehouse/adapters/sql"

export const GATEHOUSE_SECRET = "gatehouse-bench-secret-0123456789abcdef"
export const GATEHOUSE_COOKIE = "authjs.session-token"
const BATCH = 1000
const DAY = 24 * 60 * 60 * 1000

const email = (i) => `user${i}@example.com`

/** A cookie session's id as Gatehouse makes it: start time (ms, base 36, 8 characters), 96 random bits. */
const sessionId = (now) => `${now.toString(36).padStart(8, "0")}${randomBytes(12).toString("base64url")}`

/**
 * `n` Gatehouse session cookies. `signedIn`: the session cookie value of a real sign-in, whose
 * claims (name, picture, amr, authTime...) each copy keeps, with its own user and session id.
 */
export async function gatehouseCookies(n, signedIn) {
  const claims = await decode({ token: signedIn, secret: GATEHOUSE_SECRET, salt: GATEHOUSE_COOKIE })
  if (!claims) throw new Error("the signed-in session cookie does not open")
  const { iat: _iat, exp: _exp, jti: _jti, ...template } = claims
  const now = Date.now()
  const cookies = new Array(n)
  for (let i = 0; i < n; i++) {
    const token = { ...template, sub: `user-${i}`, email: email(i), name: `User ${i}`, sid: sessionId(now - i) }
    cookies[i] = `${GATEHOUSE_COOKIE}=${await encode({ token, secret: GATEHOUSE_SECRET, salt: GATEHOUSE_COOKIE })}`
  }
  return cookies
}

/** `n` users with one database session each, in Gatehouse's SQL tables (`url`, `tablePrefix`). */
export async function gatehouseDatabaseSessions(n, url, tablePrefix) {
  const adapter = SqlAdapter(url, { tablePrefix })
  const postgres = /^postgres/i.test(url)
  const instant = (date) => (postgres ? date : date.getTime())
  const now = new Date()
  const expires = instant(new Date(now.getTime() + 30 * DAY))
  const cookies = new Array(n)
  try {
    for (let start = 0; start < n; start += BATCH) {
      const users = []
      const sessions = []
      for (let i = start; i < Math.min(n, start + BATCH); i++) {
        const token = randomBytes(32).toString("hex")
        cookies[i] = `${GATEHOUSE_COOKIE}=${token}`
        users.push({ id: `user-${i}`, name: `User ${i}`, email: email(i), email_verified: instant(now) })
        sessions.push({ id: randomUUID(), session_token: token, user_id: `user-${i}`, expires, created_at: instant(now), last_seen_at: instant(now) })
      }
      await adapter.db.insertInto(`${tablePrefix}users`).values(users).execute()
      await adapter.db.insertInto(`${tablePrefix}sessions`).values(sessions).execute()
    }
  } finally {
    await adapter.close()
  }
  return cookies
}

/** Runs `work(client)` on a PostgreSQL connection whose search path is `schema`. */
async function withSchema(url, schema, work) {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

const base64url = (text) => Buffer.from(text).toString("base64url")

/**
 * `n` better-auth users and sessions in `schema`; the Cookie header of each (the signed session
 * token, and with `cookieCache` the `session_data` cookie). `secret`: the server's.
 */
export async function betterAuthSessions(n, url, schema, secret, { cookieCache = false, extra = 0 } = {}) {
  const now = new Date()
  const expiresAt = new Date(now.getTime() + 7 * DAY)
  const cookies = new Array(n)
  // `extra` more sessions get a cookie but no row: with the cookie cache they still sign in (the
  // check that the cache, not the database, answers).
  const total = n + extra
  const rows = []
  await withSchema(url, schema, async (client) => {
    for (let start = 0; start < total; start += BATCH * 10) {
      const users = { id: [], name: [], email: [] }
      const sessions = { id: [], token: [], userId: [] }
      for (let i = start; i < Math.min(total, start + BATCH * 10); i++) {
        const user = { id: `user-${i}`, name: `User ${i}`, email: email(i), emailVerified: true, image: null, createdAt: now, updatedAt: now }
        const session = { id: `session-${i}`, token: randomBytes(24).toString("base64url"), userId: user.id, expiresAt, createdAt: now, updatedAt: now, ipAddress: "", userAgent: "" }
        const signed = `${session.token}.${createHmac("sha256", secret).update(session.token).digest("base64")}`
        let cookie = `better-auth.session_token=${encodeURIComponent(signed)}`
        if (cookieCache) cookie += `; better-auth.session_data=${compactCookieCache(session, user, secret)}`
        if (i < n) {
          cookies[i] = cookie
          users.id.push(user.id)
          users.name.push(user.name)
          users.email.push(user.email)
          sessions.id.push(session.id)
          sessions.token.push(session.token)
          sessions.userId.push(user.id)
        } else rows.push(cookie)
      }
      if (!users.id.length) continue
      await client.query(
        `INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt") SELECT id, name, email, true, $4, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, name, email)`,
        [users.id, users.name, users.email, now],
      )
      await client.query(
        `INSERT INTO session (id, token, "userId", "expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent") SELECT id, token, "userId", $4, $5, $5, '', '' FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, token, "userId")`,
        [sessions.id, sessions.token, sessions.userId, expiresAt, now],
      )
    }
  })
  return { cookies, withoutRow: rows }
}

/** better-auth's compact cookie cache (cookies/index.mjs, setCookieCache), maxAge one hour. */
function compactCookieCache(session, user, secret) {
  const sessionData = { session: JSON.parse(JSON.stringify(session)), user: JSON.parse(JSON.stringify(user)), updatedAt: Date.now(), version: "1" }
  const expiresAt = Date.now() + 3600 * 1000
  const signature = createHmac("sha256", secret)
    .update(JSON.stringify({ ...sessionData, expiresAt }))
    .digest("base64url")
  return base64url(JSON.stringify({ session: sessionData, expiresAt, signature }))
}

/**
 * `n` Auth.js users and database sessions in `schema` (its documented tables, bench/servers/authjs.js),
 * plus the index on "sessionToken" its documented schema lacks (without it every read scans the
 * table, which would measure the schema rather than the library).
 */
export async function authjsSessions(n, url, schema) {
  const expires = new Date(Date.now() + 30 * DAY)
  const cookies = new Array(n)
  await withSchema(url, schema, async (client) => {
    await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS sessions_token ON sessions ("sessionToken")`)
    for (let start = 0; start < n; start += BATCH * 10) {
      const names = []
      const emails = []
      const tokens = []
      for (let i = start; i < Math.min(n, start + BATCH * 10); i++) {
        const token = randomUUID()
        cookies[i] = `authjs.session-token=${token}`
        names.push(`User ${i}`)
        emails.push(email(i))
        tokens.push(token)
      }
      await client.query(
        `WITH made AS (INSERT INTO users (name, email, "emailVerified") SELECT name, email, now() FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(name, email, n) ORDER BY n RETURNING id, email)
         INSERT INTO sessions ("userId", expires, "sessionToken") SELECT made.id, $4, t.token FROM unnest($2::text[], $3::text[]) AS t(email, token) JOIN made ON made.email = t.email`,
        [names, emails, tokens, expires],
      )
    }
  })
  return cookies
}
