// A Gatehouse app with bot protection on (issue #33), as its own process, for the two-process
// replay run (bot-protection-two-processes.test.ts); started by ../process.ts. Every process
// started with the same environment has the same configuration:
//
//   GH_SECRETS        JSON list of secrets, newest first (required)
//   AUTH_URL          set by ../process.ts
//   GH_REDIS_URL      RedisStore on this server (required here: the store that makes an ALTCHA
//                     answer single use across processes), keys under GH_REDIS_PREFIX
//
// Sign-in: the Credentials provider takes any username with the password "pw", and every sign-in
// must carry a solved ALTCHA challenge (`actions.signIn.afterFailures: 0`), cheap ones (cost 1).
// Prints "READY <port>" on stdout once it listens; SIGTERM closes it.
import express from "express"
import { authRouter } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { RedisStore } from "gatehouse/stores/redis"
import { createClient } from "redis"

const env = process.env
const client = createClient({ url: env.GH_REDIS_URL })
client.on("error", (error) => console.error(`[app] redis: ${error.message}`))
await client.connect()

const config = {
  secret: JSON.parse(env.GH_SECRETS ?? "null"),
  store: RedisStore({ client, prefix: env.GH_REDIS_PREFIX ?? "gatehouse:" }),
  rateLimit: false,
  botProtection: { altcha: { cost: 1, maxCost: 8, expires: 120 }, actions: { signIn: { afterFailures: 0 } } },
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) => (password === "pw" && typeof username === "string" ? { id: `u-${username}`, name: username } : null),
    }),
  ],
}

const app = express()
app.use("/auth", authRouter(config))

const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`READY ${server.address().port}\n`)
})
server.on("error", (error) => {
  console.error(error)
  process.exit(1)
})
process.on("SIGTERM", () => {
  server.close(() => client.quit().finally(() => process.exit(0)))
})
