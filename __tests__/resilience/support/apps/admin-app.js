// A Gatehouse app with the admin tools on (issue #30), as its own process, for the two-process run
// (admin-two-processes.test.ts; started by ../process.ts with `node --expose-gc`). Every process
// started with the same environment has the same configuration:
//
//   GH_SECRETS        JSON list of secrets, newest first (required)
//   AUTH_URL          set by ../process.ts
//   GH_DB             the SQL adapter's database URL (required); GH_TABLE_PREFIX its tables
//                     (created by the test before any process starts)
//   GH_REDIS_URL      RedisStore on this server with a second client as `subscriber` (the
//                     channel that carries session revocations to every process); keys under
//                     GH_REDIS_PREFIX
//   GH_STRATEGY       session strategy: "cookie" (default) or "database"
//   GH_ADMIN_IDS      comma-separated user ids of the admins (required: the admin option needs
//                     a way to know its admins)
//
// Users: whoever the test stored in the shared tables; the Credentials provider signs in a stored
// user by their address with the password "pw".
//
// Routes: the router at /auth (the admin actions under /auth/admin/<action>), and GET /api/me
// behind requireAuth(config).
// Prints "READY <port>" on stdout once it listens; SIGTERM closes it.
import express from "express"
import { authRouter, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { SqlAdapter } from "gatehouse/adapters/sql"
import { RedisStore } from "gatehouse/stores/redis"
import { createClient } from "redis"

const env = process.env

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
  session: { strategy: env.GH_STRATEGY ?? "cookie" },
  admin: { userIds: (env.GH_ADMIN_IDS ?? "").split(",").filter(Boolean) },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      authorize: async ({ email, password }) => {
        if (password !== "pw" || typeof email !== "string") return null
        const user = await adapter.getUserByEmail(email)
        return user ? { id: user.id, email: user.email, name: user.name } : null
      },
    }),
  ],
}

const app = express()
app.use("/auth", authRouter(config))
app.get("/api/me", requireAuth(config), (req, res) => {
  res.json({ user: req.auth.user.email })
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
