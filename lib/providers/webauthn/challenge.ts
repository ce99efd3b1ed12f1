/**
 * The challenge of a passkey ceremony: in its own sealed cookie (`authjs.challenge`, salt = its
 * name), bound to the provider, the ceremony (register or authenticate) and, for a registration,
 * the user it registers for; cleared by the callback whatever its outcome. Each challenge can be
 * used once: the sealed value has an id, remembered as consumed (in the state store) until the
 * challenge expires, so a replayed (cookie, response) pair fails even for authenticators whose
 * counter stays at 0.
 */
import { randomUUID } from "node:crypto"
import { StoreUnavailable, WebAuthnVerificationError } from "../../errors.js"
import type { Cookie } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { FLOW_COOKIE_MAX_AGE } from "../../core/config/defaults.js"
import { nowSeconds, openToken, sealToken } from "../../jwt/codec.js"
import { clearCookie } from "../../session/chunks.js"
import type { WebAuthnProviderConfig } from "../types.js"

export interface Challenge {
  challenge: string
  action: "register" | "authenticate"
  provider: string
  /** Registration: the user the passkey is for (stored already when `startedBy` is set). */
  user?: { id: string; email?: string | null; name?: string | null }
  /** The stored user whose session asked for a registration (adding a passkey). */
  startedBy?: string
  jti: string
}

export function challengeCookie(ctx: RequestContext, challenge: Omit<Challenge, "jti">): Cookie {
  const option = ctx.cookies.webauthnChallenge
  const maxAge = option.options.maxAge ?? FLOW_COOKIE_MAX_AGE
  const payload = { ...challenge, jti: randomUUID() }
  return { name: option.name, value: sealToken(payload, ctx.config.secrets[0] as string, option.name, maxAge), options: { ...option.options, maxAge } }
}

export function clearChallenge(ctx: RequestContext): Cookie[] {
  const option = ctx.cookies.webauthnChallenge
  return ctx.request.cookies[option.name] === undefined ? [] : [clearCookie(option.name, option.options)]
}

/**
 * Marks the challenge `jti` used, in the configured state store (shared by the app's processes
 * when it is Redis), until the sealed cookie expires anyway. False when it was used already; a
 * store that cannot take more refuses the ceremony rather than forget a used challenge.
 */
async function claim(ctx: RequestContext, jti: string, expires: number): Promise<boolean> {
  try {
    return await ctx.config.store.claim(`webauthn-challenge:${jti}`, Math.max(1, expires - nowSeconds()))
  } catch (error) {
    // The shared store is down: refused as such (503), never checked in this process alone.
    if (error instanceof StoreUnavailable) throw error
    throw new WebAuthnVerificationError("Too many passkey ceremonies in progress: try again in a few minutes", { cause: { err: error } })
  }
}

/** The request's challenge for `provider`, used up now; a missing, expired, foreign or used one is refused. */
export async function takeChallenge(ctx: RequestContext, provider: WebAuthnProviderConfig): Promise<Challenge> {
  const option = ctx.cookies.webauthnChallenge
  const raw = ctx.request.cookies[option.name]
  const opened = typeof raw === "string" ? openToken(raw, ctx.config.secrets, option.name, nowSeconds(), 0) : null
  const payload = opened?.payload as (Partial<Challenge> & { exp?: number }) | undefined
  if (!payload || typeof payload.challenge !== "string" || typeof payload.jti !== "string" || (payload.action !== "register" && payload.action !== "authenticate")) {
    throw new WebAuthnVerificationError("The passkey challenge is missing or expired: ask for new options")
  }
  if (payload.provider !== provider.id) throw new WebAuthnVerificationError("The passkey challenge belongs to another provider")
  if (!(await claim(ctx, payload.jti, payload.exp ?? nowSeconds() + FLOW_COOKIE_MAX_AGE))) throw new WebAuthnVerificationError("The passkey challenge was used already")
  return payload as Challenge
}
