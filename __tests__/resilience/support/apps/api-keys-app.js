// A Gatehouse app with API keys on (issue #31), as its own process, for the two-process run
// (api-keys-two-processes.test.ts) and the key timing run (timing-api-keys.test.ts); started by
// ../process.ts with `node --expose-gc`. Every process started with the same environment has the
// same configuration:
//
//   GH_SECRETS        JSON list of secrets, newest first (required)
//   AUTH_URL          set by ../process.ts
//   GH_DB             the SQL adapter's database URL (required); GH_TABLE_PREFIX its tables
//                     (created by the test before any process starts)
//   GH_REDIS_URL      optional: RedisStore on this server with a second client as `subscriber`
//                     (the channel that carries key and session revocations to every process);
//                     keys under GH_REDIS_PREFIX. Unset: the default in-process store
//   GH_ADMIN_IDS      optional: comma-separated user ids of the admins (the admin tools, for bans)
//
// Users: whoever the test stored in the shared tables; the Credentials provider signs in a stored
// user by their address with the password "pw". The API-key options are the defaults (prefix
// "gk_", the rate limit of 600 a minute per key).
//
// Routes: the router at /auth (keys made and revoked under /auth/api-keys/<action>, the admin
// actions under /auth/admin/<action>), and GET /api/me behind requireAuth(config, { apiKey: true }),
// answering who called and how.
// Prints "READY <port>" on stdout once it listens; SIGTERM closes it.
import express from "express"
import { authRouter, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { SqlAdapter } from "gatehouse/adapters/sql"
import { RedisStore } from "gatehouse/stores/redis"
import { createClient } from "redis"

const env = process.env

const adapter = SqlAdapter(env.GH_DB, { tablePrefix: env.GH_TABLE_PREFIX ?? "" })

async function openStore() {
  if (!env.GH_REDIS_URL) return undefined
  const client = createClient({ url: env.GH_REDIS_URL })
  client.on("error", (error) => console.error(`[app] redis: ${error.message}`))
  await client.connect()
  const subscriber = client.duplicate()
  subscriber.on("error", (error) => console.error(`[app] redis subscriber: ${error.message}`))
  await subscriber.connect()
  return { store: RedisStore({ client, prefix: env.GH_REDIS_PREFIX ?? "gatehouse:", subscriber }), clients: [client, subscriber] }
}

const shared = await openStore()
const adminIds = (env.GH_ADMIN_IDS ?? "").split(",").filter(Boolean)

const config = {
  secret: JSON.parse(env.GH_SECRETS ?? "null"),
  adapter,
  ...(shared && { store: shared.store }),
  // The sign-in limiter is off (the runs sign in from one address); the keys' own limit is not.
  rateLimit: false,
  apiKeys: true,
  ...(adminIds.length && { admin: { userIds: adminIds } }),
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
app.get("/api/me", requireAuth(config, { apiKey: true }), (req, res) => {
  res.json({ user: req.auth.user.email, via: req.auth.via })
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
  await Promise.allSettled([adapter.close(), ...(shared?.clients ?? []).map((client) => client.quit())])
  process.exit(0)
})
