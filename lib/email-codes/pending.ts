/**
 * The code cookie: what binds a one-time code to the browser that asked for it. Set with the
 * redirect to the verify-request page, it holds, sealed (JWE with the secret, salt = the cookie
 * name, so no other cookie can stand in for it), the code's salted hash, the address, the hash
 * of the link's token (the stored verification token both the code and the link use up, so using
 * one spends the other) and the callback URL, until the code expires. Nothing about the code is
 * stored anywhere else, so third-party adapters need no new method; the cookie cannot be read or
 * forged without the secret, and is worthless without the code (and vice versa).
 */
import type { Cookie } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { openToken, sealToken } from "../jwt/codec.js"
import { clearCookie } from "../session/chunks.js"

export interface PendingCode {
  /** The email provider's id. */
  provider: string
  identifier: string
  /** The stored verification token's hash (what `useVerificationToken` takes). */
  link: string
  /** hashCode(code, salt). */
  hash: string
  /** Random, per code: the hash's salt and the key its wrong tries are counted under. */
  salt: string
  callbackUrl: string
  /** Epoch milliseconds when the code stops working. */
  expires: number
}

/**
 * The cookie outlives its code by this many seconds, so a code typed a little late is told it
 * expired (rather than that this browser never asked for one).
 */
const GRACE = 60 * 60

/** `__Host-` on HTTPS: Secure, Path=/, no Domain, so a sibling subdomain cannot plant one. */
export function codeCookieName(ctx: Pick<RequestContext, "request">): string {
  return ctx.request.secure ? "__Host-gatehouse.email-code" : "gatehouse.email-code"
}

function cookieOptions(ctx: RequestContext, maxAge: number) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: ctx.request.secure, maxAge }
}

/** The cookie for a code that lives `maxAge` seconds. */
export function codeCookie(ctx: RequestContext, pending: Omit<PendingCode, "expires">, codeMaxAge: number): Cookie {
  const name = codeCookieName(ctx)
  const maxAge = codeMaxAge + GRACE
  const value = sealToken({ ...pending, expires: Date.now() + codeMaxAge * 1000 }, ctx.config.secrets[0] as string, name, maxAge)
  return { name, value, options: cookieOptions(ctx, maxAge) }
}

/** The pending code of this browser, if its cookie opens with one of the secrets and has not expired. */
export function readPendingCode(ctx: RequestContext): PendingCode | undefined {
  const name = codeCookieName(ctx)
  const value = ctx.request.cookies[name]
  if (typeof value !== "string") return undefined
  // No clock tolerance past `exp`: the lifetime is the point.
  const payload = openToken(value, ctx.config.secrets, name, undefined, 0)?.payload as Partial<PendingCode> | undefined
  if (!payload) return undefined
  const fields = ["provider", "identifier", "link", "hash", "salt", "callbackUrl"] as const
  if (fields.some((field) => typeof payload[field] !== "string") || typeof payload.expires !== "number") return undefined
  return payload as PendingCode
}

/** Whether the browser sent a code cookie at all (valid or not). */
export function hasCodeCookie(ctx: RequestContext): boolean {
  return typeof ctx.request.cookies[codeCookieName(ctx)] === "string"
}

/** Removes the code cookie (after a sign-in, or once the code is dead). */
export function clearCodeCookie(ctx: RequestContext): void {
  if (!hasCodeCookie(ctx)) return
  ctx.outCookies.push(clearCookie(codeCookieName(ctx), cookieOptions(ctx, 0)))
}
