/**
 * The OAuth checks: PKCE (S256), state and nonce. Each value travels to the provider and back in
 * the URL, and lives meanwhile in its own cookie, sealed (JWE, salt = the cookie name, so no
 * cookie can stand in for another or for a session) and bound to the provider that started the
 * flow, for 15 minutes. The callback clears them all, whatever its outcome.
 */
import * as client from "openid-client"
import { InvalidCheck } from "../../errors.js"
import type { Cookie, CookieOption } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { FLOW_COOKIE_MAX_AGE } from "../../core/config/defaults.js"
import { nowSeconds, openToken, sealToken } from "../../jwt/codec.js"
import { safeEqual } from "../../crypto/equal.js"
import { clearCookie } from "../../session/chunks.js"
import type { OAuthCheck, OAuthProviderConfig } from "../types.js"

export interface IssuedChecks {
  /** Parameters for the authorization URL. */
  params: Record<string, string>
  cookies: Cookie[]
}

export interface ExpectedChecks {
  state?: string
  codeVerifier?: string
  nonce?: string
  /** The stored user whose session started this sign-in (a new account may be linked to them only). */
  startedBy?: string
}

type CheckCookie = "state" | "pkceCodeVerifier" | "nonce"

/** The checks a provider uses: its own list (default PKCE), plus state behind a redirect proxy. */
export function checksOf(provider: OAuthProviderConfig, viaProxy: boolean): Set<OAuthCheck> {
  const checks = new Set<OAuthCheck>(provider.checks ?? ["pkce"])
  if (checks.has("none")) return new Set()
  if (viaProxy) checks.add("state")
  return checks
}

function option(ctx: RequestContext, name: CheckCookie): CookieOption {
  return ctx.cookies[name]
}

function lifetime(cookie: CookieOption): number {
  return cookie.options.maxAge ?? FLOW_COOKIE_MAX_AGE
}

function sealed(ctx: RequestContext, name: CheckCookie, value: string, provider: OAuthProviderConfig, startedBy?: string): Cookie {
  const cookie = option(ctx, name)
  const maxAge = lifetime(cookie)
  const payload = startedBy ? { value, provider: provider.id, startedBy } : { value, provider: provider.id }
  const sealedValue = sealToken(payload, ctx.config.secrets[0] as string, cookie.name, maxAge)
  return { name: cookie.name, value: sealedValue, options: { ...cookie.options, maxAge } }
}

/**
 * New check values for a sign-in: the URL parameters and the cookies that remember them (and,
 * sealed with them, the stored user whose session started the sign-in).
 */
export async function issueChecks(
  ctx: RequestContext,
  provider: OAuthProviderConfig,
  checks: Set<OAuthCheck>,
  state?: string,
  startedBy?: string,
): Promise<IssuedChecks> {
  const params: Record<string, string> = {}
  const cookies: Cookie[] = []
  if (checks.has("pkce")) {
    const verifier = client.randomPKCECodeVerifier()
    params.code_challenge = await client.calculatePKCECodeChallenge(verifier)
    params.code_challenge_method = "S256"
    cookies.push(sealed(ctx, "pkceCodeVerifier", verifier, provider, startedBy))
  }
  if (checks.has("state")) {
    params.state = state ?? client.randomState()
    cookies.push(sealed(ctx, "state", params.state, provider, startedBy))
  }
  if (checks.has("nonce")) {
    params.nonce = client.randomNonce()
    cookies.push(sealed(ctx, "nonce", params.nonce, provider, startedBy))
  }
  return { params, cookies }
}

function opened(ctx: RequestContext, name: CheckCookie, provider: OAuthProviderConfig): { value: string; startedBy?: string } {
  const cookie = option(ctx, name)
  const raw = ctx.request.cookies[cookie.name]
  const payload = typeof raw === "string" ? openToken(raw, ctx.config.secrets, cookie.name, nowSeconds(), 0)?.payload : undefined
  if (!payload || typeof payload.value !== "string") throw new InvalidCheck(`The ${name} cookie is missing, expired or invalid`)
  if (payload.provider !== provider.id) throw new InvalidCheck(`The ${name} cookie belongs to a sign-in with another provider`)
  return { value: payload.value, startedBy: typeof payload.startedBy === "string" ? payload.startedBy : undefined }
}

/** The values this browser's flow expects; a missing, expired or foreign cookie is InvalidCheck. */
export function expectedChecks(ctx: RequestContext, provider: OAuthProviderConfig, checks: Set<OAuthCheck>): ExpectedChecks {
  const state = checks.has("state") ? opened(ctx, "state", provider) : undefined
  const verifier = checks.has("pkce") ? opened(ctx, "pkceCodeVerifier", provider) : undefined
  const nonce = checks.has("nonce") ? opened(ctx, "nonce", provider) : undefined
  const startedBy = (verifier ?? state ?? nonce)?.startedBy
  return { state: state?.value, codeVerifier: verifier?.value, nonce: nonce?.value, startedBy }
}

/** The `state` the provider sent back must be the one this browser's cookie holds. */
export function assertState(expected: ExpectedChecks, received: string | undefined): void {
  if (expected.state === undefined) return
  if (!received || !safeEqual(received, expected.state)) throw new InvalidCheck("The state sent back does not match this browser's sign-in")
}

/** Clearing cookies for every check cookie the request carried. */
export function clearChecks(ctx: RequestContext): Cookie[] {
  return (["state", "pkceCodeVerifier", "nonce"] as const)
    .map((name) => option(ctx, name))
    .filter((cookie) => ctx.request.cookies[cookie.name] !== undefined)
    .map((cookie) => clearCookie(cookie.name, cookie.options))
}
