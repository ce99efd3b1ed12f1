// A Gatehouse process behind the e2e suite's nginx (scale-nginx.test.ts), started twice by
// ../../resilience/support/process.ts: every provider kind, database sessions in the shared
// PostgreSQL, the rate-limit store (and session revocations) in the shared Redis, NODE_ENV=production
// (limits on). No AUTH_URL: the site's URL comes from the request, and Express trusts the loopback
// proxy (`trust proxy`), so X-Forwarded-Proto/-Host from nginx give https://app.test:<port>.
// Every answer carries `X-Backend: <GH_NAME>`.
//
//   GH_NAME, GH_SECRET, GH_DB, GH_TABLE_PREFIX, GH_MIGRATE ("1" on the first process),
//   GH_REDIS_URL, GH_REDIS_PREFIX, GH_SMTP, GH_OIDC_ISSUER, GH_OIDC_ID, GH_OIDC_SECRET
//
// Prints "READY <port>" once it listens; SIGTERM closes it.
import express from "express"
import { createClient } from "redis"
import { authRouter, authSession, requireAuth } from "gatehouse"
import { SqlAdapter, migrate } from "gatehouse/adapters/sql"
import Credentials from "gatehouse/providers/credentials"
import Nodemailer from "gatehouse/providers/nodemailer"
import Passkey from "gatehouse/providers/passkey"
import { RedisStore } from "gatehouse/stores/redis"

const env = process.env
const adapter = SqlAdapter(env.GH_DB, { tablePrefix: env.GH_TABLE_PREFIX })
if (env.GH_MIGRATE === "1") await migrate(adapter.db, { tablePrefix: env.GH_TABLE_PREFIX })

const redis = createClient({ url: env.GH_REDIS_URL })
redis.on("error", (error) => console.error(`[app] redis: ${error.message}`))
await redis.connect()
const subscriber = redis.duplicate()
subscriber.on("error", (error) => console.error(`[app] redis subscriber: ${error.message}`))
await subscriber.connect()

const config = {
  secret: env.GH_SECRET,
  trustHost: true,
  adapter,
  session: { strategy: "database" },
  store: RedisStore({ client: redis, prefix: env.GH_REDIS_PREFIX, subscriber }),
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) =>
        username === "alice" && password === "correct-horse" ? { id: "u-alice", name: "Alice", email: "alice@example.com" } : null,
    }),
    Nodemailer({ server: env.GH_SMTP, from: "Gatehouse <no-reply@app.test>" }),
    { id: "local", name: "Local IdP", type: "oidc", issuer: env.GH_OIDC_ISSUER, clientId: env.GH_OIDC_ID, clientSecret: env.GH_OIDC_SECRET },
    Passkey(),
  ],
}

const app = express()
app.set("trust proxy", "loopback")
app.use((_req, res, next) => {
  res.setHeader("X-Backend", env.GH_NAME)
  next()
})
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/api/me", requireAuth(config), (req, res) => res.json({ user: req.auth.user, backend: env.GH_NAME }))
app.get("/", (req, res) => res.type("html").send(`<!doctype html><title>Home</title><p id="who">${req.auth ? `Signed in as ${req.auth.user.email}.` : "Signed out."}</p>`))

const server = app.listen(0, "127.0.0.1", () => process.stdout.write(`READY ${server.address().port}\n`))
process.on("SIGTERM", async () => {
  server.closeAllConnections()
  server.close()
  await Promise.allSettled([adapter.close(), redis.quit(), subscriber.quit()])
  process.exit(0)
})
