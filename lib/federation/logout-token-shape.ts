/**
 * The checks a back-channel logout token must pass before anything is fetched (issue #24): three
 * base64url parts, a JSON header naming an algorithm (never `none`), JSON claims, `iss` the
 * provider's issuer (where the configuration names one) and an `events` claim. Garbage, or a
 * token meant for another provider, is `InvalidLogoutToken` (400) without a single outbound
 * request: an unreachable issuer never turns it into a 500, and a stranger cannot make the app
 * fetch the provider's keys at will. The signature and every other claim are verified after this
 * (logout-token.ts).
 */
import * as jose from "jose"
import { InvalidLogoutToken } from "./errors.js"
import type { OAuthProviderConfig } from "../providers/types.js"

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

/** Equal issuers, ignoring only a trailing slash (as discovery does). */
const sameIssuer = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "")

/** Throws `InvalidLogoutToken` unless `token` has a logout token's shape and names the provider as its issuer. */
export function checkLogoutTokenShape(provider: OAuthProviderConfig, token: string): void {
  if (!COMPACT_JWS.test(token)) throw new InvalidLogoutToken("The logout token is not a signed JWT (three base64url parts)")
  let header: jose.ProtectedHeaderParameters
  let claims: jose.JWTPayload
  try {
    header = jose.decodeProtectedHeader(token)
    claims = jose.decodeJwt(token)
  } catch (error) {
    throw new InvalidLogoutToken(`The logout token cannot be decoded: ${(error as Error).message}`, { cause: { err: error } })
  }
  if (typeof header.alg !== "string" || !header.alg || header.alg.toLowerCase() === "none") throw new InvalidLogoutToken("The logout token's header names no signing algorithm")
  if (typeof claims.iss !== "string" || !claims.iss) throw new InvalidLogoutToken("The logout token has no iss claim")
  if (provider.issuer && !sameIssuer(claims.iss, provider.issuer)) throw new InvalidLogoutToken(`The logout token's issuer is not provider "${provider.id}"`)
  if (claims.events === undefined || claims.events === null) throw new InvalidLogoutToken("The logout token has no events claim")
}
