// Issue #32: Gatehouse as an identity provider against what it wraps, in the same rounds.
//
// - The token endpoint: client credentials for a JWT access token (resource + scope, Basic auth),
//   bare oidc-provider 9 at /oidc against Gatehouse's `oidcProvider` at /auth/oidc, configured
//   alike (same client, resource, scope, lifetime, one RS256 key made once by the runner).
// - The access-token check on an API route: a bare jose check (jwtVerify against a local JWKS,
//   audience and scope) against requireAuth({ accessToken: { audience, scope } }), each loaded with
//   a token minted before the load by Gatehouse's provider in the same server process, with the
//   same key. requireAuth remembers a checked token until its expiry (access-token.ts), so one
//   client repeating its token, as this load does, costs it a map read, where the bare check
//   verifies the signature every time.
import { fileURLToPath } from "node:url"
import { decodeJwt, decodeProtectedHeader } from "jose"
import { API, CLIENT_ID, SCOPE, TOKEN_BODY, TOKEN_HEADERS, requestToken, signingKeyEnv } from "../lib/identity-provider.js"

const server = (name) => fileURLToPath(new URL(`../servers/${name}.js`, import.meta.url))
/** The runner's key, given to every server of these scenarios. */
const services = async () => ({ env: await signingKeyEnv(), close: async () => {} })

/** Throws unless `token` is a JWT access token for the API with the scope, signed RS256. */
function checkIssued(token, where) {
  const header = decodeProtectedHeader(token)
  const claims = decodeJwt(token)
  if (header.typ !== "at+jwt" || header.alg !== "RS256" || claims.aud !== API || claims.scope !== SCOPE || claims.client_id !== CLIENT_ID) {
    throw new Error(`${where} issued ${JSON.stringify({ header, claims })} (expected an RS256 at+jwt for ${API} with scope ${SCOPE})`)
  }
}

function tokenScenario({ id, name, library, path, file }) {
  return {
    id,
    name,
    library,
    job: "oidc-token",
    server: server(file),
    services,
    prepare: async () => ({}),
    requests: () => [{ method: "POST", path, headers: TOKEN_HEADERS, body: TOKEN_BODY }],
    verify: async ({ origin }) => checkIssued((await requestToken(`${origin}${path}`)).access_token, `POST ${path}`),
  }
}

/** GET /protected with `token`: the answer's status and body. */
async function callProtected(origin, token) {
  const response = await fetch(`${origin}/protected`, { headers: { authorization: `Bearer ${token}` } })
  return { status: response.status, text: await response.text() }
}

function accessTokenScenario({ id, name, library, check }) {
  return {
    id,
    name,
    library,
    job: "access-token",
    server: server("gatehouse-oidc"),
    env: { BENCH_CHECK: check },
    services,
    prepare: async ({ origin }) => {
      const { access_token: token } = await requestToken(`${origin}/auth/oidc/token`)
      checkIssued(token, "POST /auth/oidc/token")
      return { token }
    },
    requests: ({ token }) => [{ method: "GET", path: "/protected", headers: { authorization: `Bearer ${token}` } }],
    // The token is taken, and a token with another signature is refused (the check is not a no-op).
    verify: async ({ origin, prepared }) => {
      const good = await callProtected(origin, prepared.token)
      if (good.status !== 200 || JSON.parse(good.text).client !== CLIENT_ID) throw new Error(`GET /protected answered ${good.status} ${good.text.slice(0, 200)} (expected 200 for ${CLIENT_ID})`)
      const [head, body, signature] = prepared.token.split(".")
      const forged = `${head}.${body}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`
      const refused = await callProtected(origin, forged)
      if (refused.status !== 401) throw new Error(`GET /protected with a forged signature answered ${refused.status} (expected 401)`)
    },
  }
}

export default [
  tokenScenario({ id: "oidc-provider-token", name: "bare oidc-provider 9: POST /oidc/token (client credentials, JWT)", library: "oidc-provider", path: "/oidc/token", file: "oidc-provider-bare" }),
  tokenScenario({ id: "gatehouse-oidc-token", name: "Gatehouse oidcProvider: POST /auth/oidc/token (client credentials, JWT)", library: "gatehouse", path: "/auth/oidc/token", file: "gatehouse-oidc" }),
  accessTokenScenario({ id: "jose-access-token", name: "bare jose jwtVerify (Bearer JWT access token)", library: "jose", check: "jose" }),
  accessTokenScenario({ id: "gatehouse-access-token", name: "Gatehouse requireAuth({ accessToken }) (Bearer JWT access token)", library: "gatehouse", check: "requireAuth" }),
]
