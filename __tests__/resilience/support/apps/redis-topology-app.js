// A Gatehouse app as its own process for the Redis Cluster and Sentinel failover runs (issue #34),
// started by ../process.ts. RedisStore on an ioredis Cluster or a Sentinel-backed ioredis client,
// as the README's "Scaling out" sets them up; the rest as gatehouse-app.js:
//
//   GH_SECRETS          JSON list of secrets (required)
//   GH_DB, GH_TABLE_PREFIX   the SQL adapter (users, passkeys)
//   GH_REDIS_CLUSTER    JSON [{ host, port }, ...]: an ioredis Cluster (and a second one, with
//                       shardedSubscribers, as the subscriber)
//   GH_REDIS_SENTINELS  JSON [{ host, port }, ...] and GH_REDIS_NAME: a Sentinel-backed ioredis
//                       client (and its duplicate as the subscriber)
//   GH_REDIS_PREFIX     key prefix
//   GH_WAIT_REPLICAS    JSON for waitForReplicas (e.g. {"replicas":1,"timeoutMs":100})
//   GH_RATE_LIMIT       JSON for the rateLimit option
//
// Cookie sessions (revocable through the store), credentials (alice, bob) and passkeys.
// Routes: /auth, GET /api/me behind requireAuth, POST /__revoke-user/:id (revokeUserSessions),
// GET /__heard: how many revocation messages the subscriber has received (so a test can tell the
// push arrived, not the one-second cache's refresh).
// Prints "READY <port>" once it listens; SIGTERM closes it.
import express from "express"
import { Cluster, Redis } from "ioredis"
import { authRouter, authSession, requireAuth, revokeUserSessions } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import Passkey from "gatehouse/providers/passkey"
import { SqlAdapter } from "gatehouse/adapters/sql"
import { RedisStore } from "gatehouse/stores/redis"

const env = process.env
const USERS = new Map([
  ["alice", { id: "u-alice", password: "correct-horse", name: "Alice", email: "alice@example.com" }],
  ["bob", { id: "u-bob", password: "battery-staple", name: "Bob", email: "bob@example.com" }],
])

// Commands fail rather than wait while the store is away (Gatehouse bounds every call by its
// own timeout anyway, and falls back or fails closed): reconnects are fast and unbounded.
const retry = () => 100
let client
let subscriber
if (env.GH_REDIS_CLUSTER) {
  const nodes = JSON.parse(env.GH_REDIS_CLUSTER)
  const options = { clusterRetryStrategy: retry, redisOptions: { maxRetriesPerRequest: 1, connectTimeout: 1000 } }
  client = new Cluster(nodes, options)
  subscriber = new Cluster(nodes, { ...options, shardedSubscribers: true })
} else {
  const options = { sentinels: JSON.parse(env.GH_REDIS_SENTINELS), name: env.GH_REDIS_NAME, maxRetriesPerRequest: 1 }
  client = new Redis(options)
  subscriber = new Redis(options)
}
for (const [label, connection] of [["client", client], ["subscriber", subscriber]]) {
  connection.on("error", (error) => console.error(`[app] redis ${label}: ${error.message}`))
}
let heard = 0
subscriber.on(env.GH_REDIS_CLUSTER ? "smessage" : "message", () => heard++)
await Promise.all([client, subscriber].map((connection) => new Promise((ready) => connection.once("ready", ready))))

// Every store call that fails, with the time (Gatehouse logs a store failure once a minute): on
// stderr, for the test's report of what the outage did.
function traced(store) {
  const wrapped = {}
  for (const [name, method] of Object.entries(store)) {
    wrapped[name] = typeof method !== "function" ? method : (...args) => Promise.resolve(method.apply(store, args)).catch((error) => {
      console.error(`[store-failure] ${Date.now()} ${name}: ${error.message}`)
      throw error
    })
  }
  return wrapped
}

const adapter = SqlAdapter(env.GH_DB, { tablePrefix: env.GH_TABLE_PREFIX ?? "" })
const config = {
  secret: JSON.parse(env.GH_SECRETS ?? "null"),
  adapter,
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: async ({ username, password }) => {
        const user = USERS.get(String(username))
        return user && user.password === password ? { id: user.id, name: user.name, email: user.email } : null
      },
    }),
    Passkey(),
  ],
  session: { strategy: "cookie" },
  rateLimit: env.GH_RATE_LIMIT ? JSON.parse(env.GH_RATE_LIMIT) : false,
  store: traced(
    RedisStore({
      client,
      subscriber,
      prefix: env.GH_REDIS_PREFIX ?? "gatehouse:",
      ...(env.GH_WAIT_REPLICAS ? { waitForReplicas: JSON.parse(env.GH_WAIT_REPLICAS) } : {}),
    }),
  ),
  logger: { error: (error) => console.error(`[gatehouse][error] ${error.type ?? error.name}: ${error.message}`) },
}

const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/api/me", requireAuth(config), (req, res) => {
  res.json({ user: req.auth.user })
})
app.get("/__heard", (_req, res) => {
  res.json({ heard })
})
app.post("/__revoke-user/:id", (req, res, next) => {
  revokeUserSessions(req.params.id, config).then(() => res.json({ revoked: req.params.id }), next)
})
// What went wrong, named: the test allows only documented errors.
app.use((error, _req, res, _next) => {
  res.status(error.status ?? 500).json({ error: error.type ?? error.name ?? "Error", message: error.message })
})

const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`READY ${server.address().port}\n`)
})
process.on("SIGTERM", async () => {
  server.closeAllConnections()
  server.close()
  await Promise.allSettled([adapter.close(), client.quit(), subscriber.quit()])
  process.exit(0)
})
