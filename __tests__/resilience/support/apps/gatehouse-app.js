// A Gatehouse app as its own process, for the load, scale-out and timing runs of
// `npm run test:resilience` (started by ../process.ts with `node --expose-gc`). Configured by the
// environment, so one script serves every run:
//
//   GH_SECRETS        JSON list of secrets, newest first (required)
//   AUTH_URL          set by ../process.ts (http://app.test:3000/auth: the URLs it writes never follow Host)
//   GH_DB             a database URL for the SQL adapter (none: no adapter); GH_TABLE_PREFIX its tables
//   GH_MIGRATE        "1": create the tables here (only when a single process uses them)
//   GH_STRATEGY       session strategy (cookie or database; default: Gatehouse's own default)
//   GH_UPDATE_AGE     session.updateAge in seconds
//   GH_RATE_LIMIT     JSON for the rateLimit option (default false)
//   GH_REDIS_URL      use RedisStore on this server, keys under GH_REDIS_PREFIX
//   GH_SMTP           add the nodemailer (magic link) provider sending to this SMTP URL
//   GH_PASSKEY        "1": add the passkey provider (needs GH_DB)
//   GH_TRUST_PROXY    "1": app.set("trust proxy", true), so X-Forwarded-For gives each request its
//                     own client address (Express's documented setting; the test's way of getting
//                     many distinct rate-limit keys from one loopback client)
//   GH_AUTHORIZE      how `authorize` checks passwords: "plain" (the example's constant-time string
//                     comparison, cheap) or "scrypt" (stored scrypt hashes; an unknown user
//                     verifies a dummy hash so both paths cost the same) or "scrypt-naive" (no
//                     dummy hash: unknown users return at once; to show the timing run can tell)
//   GH_BIG_SESSION    "1": the jwt callback adds ~6 kB to the token, so the cookie is chunked
//   GH_ADMIN          "1": POST /__revoke-user/:id calls revokeUserSessions (the app's own code path)
//
// With GH_REDIS_URL, RedisStore gets a second client as `subscriber`, so revocations made on one
// process reach the others' caches at once (README "Sessions and devices").
//
// Routes: the router at /auth, authSession, GET /api/me behind requireAuth, and GET /__heap (heap
// in use after full garbage collections, in bytes: the app's own memory, not the test runner's;
// and the event loop's p99 delay since the previous call).
// Prints "READY <port>" on stdout once it listens; SIGTERM closes it and its connections.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { promisify } from "node:util"
import express from "express"
import { authRouter, authSession, requireAuth, revokeUserSessions } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"

const scrypt = promisify(scryptCallback)
const env = process.env

/** The users: alice and bob (catalog fixtures) and bench users load-0 … load-9. */
const PEOPLE = [
  { id: "u-alice", username: "alice", password: "correct-horse", name: "Alice", email: "alice@example.com" },
  { id: "u-bob", username: "bob", password: "battery-staple", name: "Bob", email: "bob@example.com" },
  ...Array.from({ length: 10 }, (_, i) => ({ id: `u-load-${i}`, username: `load-${i}`, password: `pw-${i}`, name: `Load ${i}`, email: `load-${i}@example.com` })),
]

const mode = env.GH_AUTHORIZE ?? "plain"
const hashing = mode === "scrypt" || mode === "scrypt-naive"
const hash = async (password, salt) => /** @type {Buffer} */ (await scrypt(password, salt, 32))
const USERS = new Map()
for (const person of PEOPLE) {
  const salt = randomBytes(16)
  USERS.set(person.username, { ...person, salt, hash: hashing ? await hash(person.password, salt) : undefined })
}
// Verified when the username is unknown, so that answer takes as long as a wrong password.
const DUMMY = { salt: randomBytes(16), hash: hashing ? await hash(randomBytes(12).toString("hex"), randomBytes(16)) : undefined }

function same(a, b) {
  const left = Buffer.from(String(a))
  const right = Buffer.from(String(b))
  return left.length === right.length && timingSafeEqual(left, right)
}

async function authorize({ username, password }) {
  const user = USERS.get(username)
  if (mode === "plain") return user && same(user.password, password) ? { id: user.id, name: user.name, email: user.email } : null
  if (!user && mode === "scrypt-naive") return null
  const record = user ?? DUMMY
  const ok = timingSafeEqual(await hash(String(password ?? ""), record.salt), record.hash)
  return user && ok ? { id: user.id, name: user.name, email: user.email } : null
}

const providers = [
  Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    authorize,
  }),
]

let adapter
let redis
let subscriber
if (env.GH_DB) {
  const { SqlAdapter, migrate } = await import("gatehouse/adapters/sql")
  adapter = SqlAdapter(env.GH_DB, { tablePrefix: env.GH_TABLE_PREFIX ?? "" })
  if (env.GH_MIGRATE === "1") await migrate(adapter.db, { tablePrefix: env.GH_TABLE_PREFIX ?? "" })
}
if (env.GH_SMTP) {
  const { default: Nodemailer } = await import("gatehouse/providers/nodemailer")
  providers.push(Nodemailer({ server: env.GH_SMTP, from: "Gatehouse <no-reply@app.test>" }))
}
if (env.GH_PASSKEY === "1") {
  const { default: Passkey } = await import("gatehouse/providers/passkey")
  providers.push(Passkey())
}

const config = {
  secret: JSON.parse(env.GH_SECRETS ?? "null"),
  providers,
  adapter,
  rateLimit: env.GH_RATE_LIMIT ? JSON.parse(env.GH_RATE_LIMIT) : false,
  session: {
    ...(env.GH_STRATEGY ? { strategy: env.GH_STRATEGY } : {}),
    ...(env.GH_UPDATE_AGE !== undefined ? { updateAge: Number(env.GH_UPDATE_AGE) } : {}),
  },
}
if (env.GH_BIG_SESSION === "1") {
  config.callbacks = {
    jwt: ({ token, user }) => (user ? { ...token, blob: randomBytes(4500).toString("base64") } : token),
  }
}
if (env.GH_REDIS_URL) {
  const { createClient } = await import("redis")
  const { RedisStore } = await import("gatehouse/stores/redis")
  redis = createClient({ url: env.GH_REDIS_URL })
  // node-redis needs a listener, or a lost connection ends the process; Gatehouse's store falls
  // back to memory (and logs) while Redis is away.
  redis.on("error", (error) => console.error(`[app] redis: ${error.message}`))
  await redis.connect()
  subscriber = redis.duplicate()
  subscriber.on("error", (error) => console.error(`[app] redis subscriber: ${error.message}`))
  await subscriber.connect()
  config.store = RedisStore({ client: redis, prefix: env.GH_REDIS_PREFIX ?? "gatehouse:", subscriber })
}

const app = express()
if (env.GH_TRUST_PROXY === "1") app.set("trust proxy", true)
// Event-loop delay since the previous sample (read before the collections below, reset after them).
const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()
app.get("/__heap", (_req, res) => {
  const loopP99Ms = loop.percentile(99) / 1e6
  for (let i = 0; i < 3; i++) globalThis.gc?.()
  loop.reset()
  res.json({ heapUsed: process.memoryUsage().heapUsed, gc: typeof globalThis.gc === "function", loopP99Ms })
})
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/api/me", requireAuth(config), (req, res) => {
  res.json({ user: req.auth.user })
})
if (env.GH_ADMIN === "1") {
  app.post("/__revoke-user/:id", (req, res, next) => {
    revokeUserSessions(req.params.id, config).then(() => res.json({ revoked: req.params.id }), next)
  })
}

const server = app.listen(Number(env.PORT ?? 0), "127.0.0.1", () => {
  process.stdout.write(`READY ${server.address().port}\n`)
})
server.on("error", (error) => {
  console.error(error)
  process.exit(1)
})
process.on("SIGTERM", async () => {
  server.closeAllConnections()
  server.close()
  await Promise.allSettled([adapter?.close(), redis?.quit(), subscriber?.quit()])
  process.exit(0)
})
