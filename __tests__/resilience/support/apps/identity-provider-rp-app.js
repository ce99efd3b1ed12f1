// An independent relying party of Gatehouse's identity provider (issue #32): express-openid-connect
// (Auth0's Express middleware, over openid-client), as its own process, for
// identity-provider-two-processes.test.ts; started by ../process.ts. It knows the provider only by
// its issuer (discovery) and its client credentials; the code flow with PKCE, as the library does it.
//
//   GH_PORT           the port to listen on (default: any free one)
//   GH_BASE_URL       this app's own URL (its callback: <GH_BASE_URL>/callback, its sign-in: /login)
//   GH_ISSUER         the provider's issuer
//   GH_CLIENT_ID, GH_CLIENT_SECRET  this app's client at the provider
//   GH_RP_SECRET      the secret its session cookie is encrypted with
//
// Routes: /login, /callback, /logout (the library's), and GET /me: `req.oidc.user` (null when
// nobody is signed in).
// Prints "READY <port>" on stdout once it listens; SIGTERM closes it.
import express from "express"
import { auth } from "express-openid-connect"

const env = process.env

const app = express()
app.use(
  auth({
    issuerBaseURL: env.GH_ISSUER,
    baseURL: env.GH_BASE_URL,
    clientID: env.GH_CLIENT_ID,
    clientSecret: env.GH_CLIENT_SECRET,
    secret: env.GH_RP_SECRET,
    authRequired: false,
    idpLogout: false,
    authorizationParams: { response_type: "code", scope: "openid email profile" },
  }),
)
app.get("/me", (req, res) => {
  res.json({ user: req.oidc.user ?? null })
})
app.use((error, _req, res, _next) => {
  console.error(error)
  res.status(error.status ?? 500).json({ error: error.message })
})

const server = app.listen(Number(env.GH_PORT ?? 0), "127.0.0.1", () => {
  process.stdout.write(`READY ${server.address().port}\n`)
})
server.on("error", (error) => {
  console.error(error)
  process.exit(1)
})
process.on("SIGTERM", () => {
  server.closeAllConnections()
  server.close()
  process.exit(0)
})
