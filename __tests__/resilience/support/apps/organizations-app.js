// A Gatehouse app with organizations on (issue #27), as its own process, for the two-process run
// (organizations-two-processes.test.ts; started by ../process.ts with `node --expose-gc`). Every
// process started with the same environment has the same configuration:
//
//   GH_SECRETS        JSON list of secrets, newest first (required)
//   AUTH_URL          set by ../process.ts
//   GH_DB             the SQL adapter's database URL (required); GH_TABLE_PREFIX its tables
//                     (created by the test before any process starts)
//   GH_REDIS_URL      RedisStore on this server with a second client as `subscriber` (the
//                     channel that drops a changed user's memberships in every process); keys
//                     under GH_REDIS_PREFIX
//
// Sessions are cookies. Roles: member { project: [read] }, admin { project: [read, write] } (and
// the built-in permissions). Users: owner@example.com (u-owner) and member@example.com
// (u-member), password "pw", seeded in the shared tables by the test.
//
// Routes: the router at /auth (organizations JSON actions under /auth/organizations), and
// GET /api/project/write behind requireAuth(config, { permission: "project:write" }).
// Prints "READY <port>" on stdout once it listens; SIGTERM closes it.
import express from "express"
import { authRouter, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { SqlAdapter } from "gatehouse/adapters/sql"
import { RedisStore } from "gatehouse/stores/redis"
import { createClient } from "redis"

const env = process.env
const PEOPLE = new Map([
  ["owner@example.com", { id: "u-owner", name: "Owner", email: "owner@example.com" }],
  ["member@example.com", { id: "u-member", name: "Member", email: "member@example.com" }],
])

const adapter = SqlAdapter(env.GH_DB, { tablePrefix: env.GH_TABLE_PREFIX ?? "" })
const redis = createClient({ url: env.GH_REDIS_URL })
redis.on("error", (error) => console.error(`[app] redis: ${error.message}`))
await redis.connect()
const subscriber = redis.duplicate()
subscriber.on("error", (error) => console.error(`[app] redis subscriber: ${error.message}`))
await subscriber.connect()

const config = {
  secret: JSON.parse(env.GH_SECRETS ?? "null"),
  adapter,
  store: RedisStore({ client: redis, prefix: env.GH_REDIS_PREFIX ?? "gatehouse:", subscriber }),
  rateLimit: false,
  session: { strategy: "cookie" },
  organizations: { roles: { member: { project: ["read"] }, admin: { project: ["read", "write"] } } },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: ({ email, password }) => (password === "pw" ? (PEOPLE.get(String(email)) ?? null) : null),
    }),
  ],
}

const app = express()
app.use("/auth", authRouter(config))
app.get("/api/project/write", requireAuth(config, { permission: "project:write" }), (req, res) => {
  res.json({ user: req.auth.user.email, organization: req.auth.organization })
})

const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`READY ${server.address().port}\n`)
})
server.on("error", (error) => {
  console.error(error)
  process.exit(1)
})
process.on("SIGTERM", async () => {
  server.closeAllConnections()
  server.close()
  await Promise.allSettled([adapter.close(), redis.quit(), subscriber.quit()])
  process.exit(0)
})
