// The audit-trail example: every security-relevant event Gatehouse reports (sign-ins and their
// failures with the reason, sign-outs, rate limits, ...) is inserted into a PostgreSQL table by
// `events.audit`, one row per record. Cookie sessions; the demo user is demo / demo.
//   DATABASE_URL  default postgres://postgres@127.0.0.1:5432/test
//   AUDIT_TABLE   default gatehouse_audit (letters, digits, _)
//   node examples/audit-postgres/index.js      (creates the table if missing) → http://localhost:3000
// Signed in, GET /audit lists your own last 20 events.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { promisify } from "node:util"
import { fileURLToPath } from "node:url"
import express from "express"
import pg from "pg"
import { authRouter, authSession, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"

export const auditTable = process.env.AUDIT_TABLE ?? "gatehouse_audit"
if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(auditTable)) throw new Error(`AUDIT_TABLE must be letters, digits and _ (got ${auditTable})`)
export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test", max: 5 })

/** The table: the record's common fields as columns, the type-specific ones in `details`. */
export async function createAuditTable() {
  await pool.query(`CREATE TABLE IF NOT EXISTS "${auditTable}" (
    id bigserial PRIMARY KEY,
    time timestamptz NOT NULL,
    type text NOT NULL,
    outcome text NOT NULL,
    reason text,
    user_id text,
    provider text,
    ip text,
    user_agent text,
    request_id text,
    details jsonb NOT NULL DEFAULT '{}'
  )`)
  await pool.query(`CREATE INDEX IF NOT EXISTS "${auditTable}_user_time" ON "${auditTable}" (user_id, time DESC)`)
}

/**
 * One INSERT per record. Gatehouse calls this in line but does not wait for the promise: the
 * answer to the browser never waits for the database, and a failed insert is logged by Gatehouse
 * (EventError) without touching the request.
 */
function writeAudit(record) {
  const { time, type, outcome, reason, userId, provider, ip, userAgent, requestId, ...details } = record
  return pool.query(
    `INSERT INTO "${auditTable}" (time, type, outcome, reason, user_id, provider, ip, user_agent, request_id, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [time, type, outcome, reason ?? null, userId ?? null, provider ?? null, ip ?? null, userAgent ?? null, requestId ?? null, JSON.stringify(details)],
  )
}

const scryptAsync = promisify(scrypt)
async function hashPassword(password) {
  const salt = randomBytes(16)
  return `${salt.toString("hex")}:${(await scryptAsync(password, salt, 32)).toString("hex")}`
}
async function verifyPassword(stored, password) {
  const [salt, hash] = stored.split(":")
  return timingSafeEqual(await scryptAsync(String(password), Buffer.from(salt, "hex"), 32), Buffer.from(hash, "hex"))
}
const USERS = [{ id: "1", username: "demo", passwordHash: await hashPassword("demo"), name: "Demo User", email: "demo@example.com" }]
const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"))

export const authConfig = {
  providers: [
    Credentials({
      name: "username and password",
      credentials: { username: { label: "Username", autocomplete: "username" }, password: { label: "Password", type: "password" } },
      async authorize({ username, password }) {
        const user = USERS.find((candidate) => candidate.username === username)
        const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, password)
        return user && ok ? { id: user.id, name: user.name, email: user.email } : null
      },
    }),
  ],
  events: { audit: writeAudit },
  // The user's id in req.auth (cookie sessions leave it out by default), for GET /audit.
  callbacks: { session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }) },
  // Behind a proxy that sets X-Request-Id (nginx: `proxy_set_header X-Request-Id $request_id;`),
  // `requestId: { trustHeader: true }` makes the rows carry the proxy's ids.
}

export const app = express()
app.use("/auth", authRouter(authConfig))
app.use(authSession(authConfig))

app.get("/", (req, res) => {
  res.type("html").send(
    req.auth
      ? `<h1>Hello, ${req.auth.user?.name}</h1><p><a href="/audit">Your security events</a> · <a href="/auth/signout">Sign out</a></p>`
      : `<h1>Audit trail in PostgreSQL</h1><p><a href="/auth/signin">Sign in</a> as demo / demo (try a wrong password first).</p>`,
  )
})

/** The signed-in user's own last 20 events, newest first. */
app.get("/audit", requireAuth(authConfig), async (req, res, next) => {
  try {
    const { rows } = await pool.query(
      `SELECT time, type, outcome, reason, provider, ip, user_agent AS "userAgent", request_id AS "requestId", details FROM "${auditTable}" WHERE user_id = $1 ORDER BY time DESC, id DESC LIMIT 20`,
      [req.auth.user.id],
    )
    res.json(rows)
  } catch (error) {
    next(error)
  }
})

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createAuditTable()
  const port = Number(process.env.PORT ?? 3000)
  app.listen(port, () => console.log(`Gatehouse audit-trail example on http://localhost:${port} (demo / demo); events in table ${auditTable}`))
}
