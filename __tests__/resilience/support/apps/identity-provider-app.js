// A Gatehouse app with the identity provider on (issue #32), as its own process, for the
// two-process interop run (identity-provider-two-processes.test.ts; started by ../process.ts with
// `node --expose-gc`). Every process started with the same environment has the same
// configuration, and so is the same provider: same issuer, clients, signing keys (generated, not
// configured: the processes agree on them through the adapter), grants, codes and tokens.
//
//   GH_SECRETS        JSON list of secrets, newest first (required)
//   AUTH_URL          the site's URL, the same for every provider process (the issuer is
//                     `<AUTH_URL>/oidc`); each process listens on its own port all the same
//   GH_PORT           the port to listen on (default: any free one)
//   GH_DB             the SQL adapter's database URL (required); GH_TABLE_PREFIX its tables
//                     (created by the test before any process starts)
//   GH_CLIENTS        JSON list of the provider's clients (oidcProvider.clients)
//   GH_API            the resource indicator of the app's API (tokens for it are JWTs)
//
// Users: whoever the test stored in the shared tables; the Credentials provider signs in a stored
// user by their address with the password "pw".
//
// Routes: the router at /auth (the provider at /auth/oidc, its sign-in step at
// /auth/oidc-interaction/<uid>), and GET /api/notes behind requireAuth(config, { accessToken })
// for GH_API with the scope notes:read: it answers the caller as `req.auth` has it.
// Prints "READY <port>" on stdout once it listens; SIGTERM closes it.
import express from "express"
import { authRouter, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { SqlAdapter } from "gatehouse/adapters/sql"

const env = process.env
const api = env.GH_API ?? "https://api.example.test/"

const adapter = SqlAdapter(env.GH_DB, { tablePrefix: env.GH_TABLE_PREFIX ?? "" })

const config = {
  secret: JSON.parse(env.GH_SECRETS ?? "null"),
  adapter,
  rateLimit: false,
  session: { strategy: "jwt" },
  oidcProvider: {
    clients: JSON.parse(env.GH_CLIENTS ?? "[]"),
    resources: { [api]: { scopes: ["notes:read", "notes:write"] } },
  },
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
app.get("/api/notes", requireAuth(config, { accessToken: { audience: api, scope: "notes:read" } }), (req, res) => {
  res.json({ auth: req.auth })
})

const server = app.listen(Number(env.GH_PORT ?? 0), "127.0.0.1", () => {
  process.stdout.write(`READY ${server.address().port}\n`)
})
server.on("error", (error) => {
  console.error(error)
  process.exit(1)
})
process.on("SIGTERM", async () => {
  server.closeAllConnections()
  server.close()
  await adapter.close().catch(() => undefined)
  process.exit(0)
})
