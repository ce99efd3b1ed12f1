// express-openid-connect with its defaults: the session lives in the encrypted appSession cookie
// (rolling, so every response re-encrypts and re-sets it). Signs in with the authorization code
// flow against the OpenID provider at BENCH_ISSUER (bench/servers/oidc-idp.js).
import express from "express"
import { auth } from "express-openid-connect"
import { serve } from "../lib/serve.js"
import { withOrigin } from "../lib/with-origin.js"

const { BENCH_ISSUER, BENCH_CLIENT_ID, BENCH_CLIENT_SECRET } = process.env
if (!BENCH_ISSUER || !BENCH_CLIENT_ID || !BENCH_CLIENT_SECRET) {
  throw new Error("BENCH_ISSUER, BENCH_CLIENT_ID and BENCH_CLIENT_SECRET are not set (the scenario's services start the IdP)")
}

// baseURL must be this server's own origin, known only once it listens.
async function build(origin) {
  const app = express()
  app.use(
    auth({
      authRequired: false,
      issuerBaseURL: BENCH_ISSUER,
      baseURL: origin,
      clientID: BENCH_CLIENT_ID,
      clientSecret: BENCH_CLIENT_SECRET,
      secret: "gatehouse-bench-express-openid-connect-secret",
      authorizationParams: { response_type: "code", scope: "openid email" },
    }),
  )
  // requiresAuth() would answer a signed-out request with a redirect to the IdP; the contract
  // wants 401, so the route checks the same thing requiresAuth() checks.
  app.get("/protected", (req, res) => {
    if (!req.oidc.isAuthenticated()) return res.status(401).json({ error: "unauthorized" })
    res.json({ email: req.oidc.user.email })
  })
  return app
}

serve(withOrigin(build))
