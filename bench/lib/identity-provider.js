// What the identity-provider scenarios (issue #32) share between the runner and their servers: the
// machine client, the API (resource) and its scope, the token request, and the one RS256 signing
// key. The key is made once by the runner (signingKeyEnv) and handed to every server in its
// environment, so bare oidc-provider and Gatehouse sign with the same key, and the bare jose check
// and requireAuth check tokens signed with it.
import { generateKeyPairSync } from "node:crypto"
import { calculateJwkThumbprint } from "jose"

export const CLIENT_ID = "machine"
export const CLIENT_SECRET = "bench-machine-secret-0123456789abcdef0123"
/** The API the tokens are for (resource indicator and audience), its one scope, their lifetime. */
export const API = "https://api.bench.test/"
export const SCOPE = "api:read"
export const TOKEN_TTL = 3600

/** The client credentials token request, as its body and headers (the same for both providers). */
export const TOKEN_BODY = new URLSearchParams({ grant_type: "client_credentials", resource: API, scope: SCOPE }).toString()
export const TOKEN_HEADERS = {
  "content-type": "application/x-www-form-urlencoded",
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(CLIENT_ID)}:${encodeURIComponent(CLIENT_SECRET)}`).toString("base64")}`,
}

let made
/** `{ BENCH_OIDC_KEY }`: a private RSA 2048 JWK (alg RS256, kid its thumbprint), made on first call. */
export async function signingKeyEnv() {
  if (!made) {
    const jwk = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" })
    made = { BENCH_OIDC_KEY: JSON.stringify({ ...jwk, kid: await calculateJwkThumbprint(jwk), alg: "RS256", use: "sig" }) }
  }
  return made
}

/** The server side: the private JWK from the environment. */
export function signingKey() {
  const { BENCH_OIDC_KEY } = process.env
  if (!BENCH_OIDC_KEY) throw new Error("BENCH_OIDC_KEY is not set (bench/scenarios/identity-provider.js sets it)")
  return JSON.parse(BENCH_OIDC_KEY)
}

/** Its public half, for a JWKS. */
export function publicKey({ kty, n, e, kid, alg, use }) {
  return { kty, n, e, kid, alg, use }
}

/** POSTs the token request to `url`; the access token, or throws with the answer. */
export async function requestToken(url) {
  const response = await fetch(url, { method: "POST", headers: TOKEN_HEADERS, body: TOKEN_BODY })
  const body = await response.json().catch(() => ({}))
  if (response.status !== 200 || typeof body.access_token !== "string" || body.access_token.split(".").length !== 3) {
    throw new Error(`POST ${url} answered ${response.status} ${JSON.stringify(body).slice(0, 300)} (expected a JWT access token)`)
  }
  return body
}
