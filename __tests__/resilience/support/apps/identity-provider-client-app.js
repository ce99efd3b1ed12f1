// A second Gatehouse app that signs its users in through the first one's identity provider
// (issue #32: Gatehouse as a client of Gatehouse as the provider), as its own process, for
// identity-provider-two-processes.test.ts; started by ../process.ts. It has no database: its
// sessions are cookies (JWT), and its only sign-in is Gatehouse's generic OpenID Connect provider
// (`gatehouse/providers/oidc`), which finds the provider's endpoints by discovery.
//
//   GH_SECRETS        JSON list of secrets, newest first (required; not the provider's)
//   AUTH_URL          this app's own URL (its callback is <AUTH_URL>/callback/<GH_PROVIDER_ID>)
//   GH_PORT           the port to listen on (default: any free one)
//   GH_ISSUER         the provider's issuer (`<provider's AUTH_URL>/oidc`)
//   GH_PROVIDER_ID    the id of the OIDC provider here (names the callback URL)
//   GH_CLIENT_ID, GH_CLIENT_SECRET  this app's client at the provider
//
// Routes: the router at /auth (its /auth/session tells who is signed in).
// Prints "READY <port>" on stdout once it listens; SIGTERM closes it.
import express from "express"
import { authRouter } from "gatehouse"
import OIDC from "gatehouse/providers/oidc"

const env = process.env

const config = {
  secret: JSON.parse(env.GH_SECRETS ?? "null"),
  rateLimit: false,
  session: { strategy: "jwt" },
  providers: [OIDC({ id: env.GH_PROVIDER_ID, name: "Gatehouse", issuer: env.GH_ISSUER, clientId: env.GH_CLIENT_ID, clientSecret: env.GH_CLIENT_SECRET })],
}

const app = express()
app.use("/auth", authRouter(config))

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
