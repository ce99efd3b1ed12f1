// An app process for the provider-token run (issue #17, scale-token-refresh.test.ts): Gatehouse
// built from this checkout's sources (GH17_BUILD: the directory `tsc -p tsconfig.build.json
// --outDir` wrote), one OpenID provider, cookie sessions, RedisStore, and GET /token calling
// getAccessToken. Started by ../process.ts; prints "READY <port>".
//
//   GH_SECRETS, GH_REDIS_URL, GH_REDIS_PREFIX   as in gatehouse-app.js
//   GH17_BUILD                                  the build directory (lib/ and adapters/ inside)
//   GH17_ISSUER, GH17_CLIENT_ID, GH17_CLIENT_SECRET   the OpenID provider and its client
import express from "express"
import { createClient } from "redis"

const env = process.env
const build = env.GH17_BUILD
const { authRouter, authSession, getAccessToken } = await import(`${build}/lib/index.js`)
const { RedisStore } = await import(`${build}/lib/shared-store/redis.js`)

const redis = createClient({ url: env.GH_REDIS_URL })
redis.on("error", () => undefined)
await redis.connect()
const subscriber = redis.duplicate()
subscriber.on("error", () => undefined)
await subscriber.connect()

const config = {
  secret: JSON.parse(env.GH_SECRETS),
  logLevel: "error",
  providers: [{ id: "idp", name: "Test IdP", type: "oidc", issuer: env.GH17_ISSUER, clientId: env.GH17_CLIENT_ID, clientSecret: env.GH17_CLIENT_SECRET }],
  store: RedisStore({ client: redis, prefix: env.GH_REDIS_PREFIX, subscriber }),
}

const app = express()
app.use("/auth", authRouter(config))
app.use(authSession(config))
app.get("/token", (req, res) => {
  getAccessToken(req, config, "idp", { skew: Number(req.query.skew ?? 60) }).then(
    (token) => res.json({ token }),
    (error) => res.status(409).json({ error: error.type ?? error.name }),
  )
})
app.get("/__heap", (_req, res) => res.json({ heapUsed: process.memoryUsage().heapUsed, gc: typeof global.gc === "function", loopP99Ms: 0 }))

const server = app.listen(0, "127.0.0.1", () => process.stdout.write(`READY ${server.address().port}\n`))
process.once("SIGTERM", () => {
  server.closeAllConnections()
  server.close(() => Promise.allSettled([redis.quit(), subscriber.quit()]).then(() => process.exit(0)))
})
