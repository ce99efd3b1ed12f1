// Issue #32's baseline for the token endpoint: a plain oidc-provider 9 (the version Gatehouse
// wraps), its default in-memory adapter, mounted in Express at /oidc. One confidential client
// `machine` with the client credentials grant, and one API by resource indicator whose access
// tokens are JWTs (RS256, the runner's key, one hour, scope api:read): what Gatehouse's
// `oidcProvider: { clients: [machine], resources }` configures, without Gatehouse around it. The
// load: POST /oidc/token, grant_type=client_credentials with resource and scope, Basic auth.
import express from "express"
import Provider, { errors } from "oidc-provider"
import { API, CLIENT_ID, CLIENT_SECRET, SCOPE, TOKEN_TTL, signingKey } from "../lib/identity-provider.js"
import { serve } from "../lib/serve.js"
import { withOrigin } from "../lib/with-origin.js"

async function build(origin) {
  const provider = new Provider(`${origin}/oidc`, {
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, grant_types: ["client_credentials"], redirect_uris: [], response_types: [], token_endpoint_auth_method: "client_secret_basic" }],
    jwks: { keys: [signingKey()] },
    cookies: { keys: ["gatehouse-bench-oidc-cookie-key"] },
    // The token's lifetime is its resource's, as Gatehouse's provider.ts says it.
    ttl: { ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? TOKEN_TTL },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== API) throw new errors.InvalidTarget()
          return { scope: SCOPE, audience: API, accessTokenTTL: TOKEN_TTL, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } }
        },
      },
    },
  })
  const app = express()
  app.use("/oidc", provider.callback())
  return app
}

serve(withOrigin(build))
