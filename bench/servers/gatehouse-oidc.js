// Gatehouse as an identity provider (issue #32): the router at /auth with `oidcProvider: { clients:
// [machine], resources }` on the memory adapter, signing with the runner's RS256 key
// (`oidcProvider.keys`), so its token endpoint (/auth/oidc/token) is configured as bare
// oidc-provider's (bench/servers/oidc-provider-bare.js): same client, resource, scope, lifetime, key.
//
// GET /protected takes that provider's access token in `Authorization: Bearer`, checked by
// BENCH_CHECK:
// - "requireAuth" (default): requireAuth(config, { accessToken: { audience, scope } });
// - "jose": what an app would write without Gatehouse: jose's jwtVerify against a local JWKS (the
//   key's public half), then issuer, audience, typ and the scope checked.
// Both answer `{ client }` (the token's client_id); the runner mints the token through
// /auth/oidc/token of the same process before the load.
import express from "express"
import { createLocalJWKSet, jwtVerify } from "jose"
import { authRouter, requireAuth } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import { API, CLIENT_ID, CLIENT_SECRET, SCOPE, TOKEN_TTL, publicKey, signingKey } from "../lib/identity-provider.js"
import { serve } from "../lib/serve.js"
import { withOrigin } from "../lib/with-origin.js"

const check = process.env.BENCH_CHECK ?? "requireAuth"
if (check !== "requireAuth" && check !== "jose") throw new Error(`BENCH_CHECK must be requireAuth or jose (got ${check})`)

const key = signingKey()
const config = {
  secret: "gatehouse-bench-secret-0123456789abcdef",
  trustHost: true,
  logLevel: "silent",
  adapter: MemoryAdapter(),
  session: { strategy: "cookie" },
  providers: [Credentials({ credentials: { email: { label: "Email" } }, authorize: () => null })],
  oidcProvider: {
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, grant_types: ["client_credentials"], redirect_uris: [], response_types: [], token_endpoint_auth_method: "client_secret_basic" }],
    resources: { [API]: { scopes: [SCOPE], accessTokenTtl: TOKEN_TTL } },
    keys: [key],
  },
}

/** The bare check: 401 unless a valid token of this issuer for the API, 403 without the scope. */
function joseCheck(issuer) {
  const keys = createLocalJWKSet({ keys: [publicKey(key)] })
  return async (req, res, next) => {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")
    if (!match) return res.status(401).set("WWW-Authenticate", 'Bearer realm="api"').json({ error: "missing token" })
    let payload
    try {
      ;({ payload } = await jwtVerify(match[1], keys, { issuer, audience: API, typ: "at+jwt", algorithms: ["RS256"] }))
    } catch {
      return res.status(401).set("WWW-Authenticate", 'Bearer realm="api", error="invalid_token"').json({ error: "invalid token" })
    }
    if (typeof payload.scope !== "string" || !payload.scope.split(" ").includes(SCOPE)) {
      return res.status(403).set("WWW-Authenticate", `Bearer realm="api", error="insufficient_scope", scope="${SCOPE}"`).json({ error: "insufficient scope" })
    }
    req.token = payload
    next()
  }
}

async function build(origin) {
  const app = express()
  app.use("/auth", authRouter(config))
  if (check === "jose") {
    app.get("/protected", joseCheck(`${origin}/auth/oidc`), (req, res) => {
      res.json({ client: req.token.client_id })
    })
  } else {
    app.get("/protected", requireAuth(config, { accessToken: { audience: API, scope: SCOPE } }), (req, res) => {
      res.json({ client: req.auth.accessToken.clientId })
    })
  }
  return app
}

serve(withOrigin(build))
