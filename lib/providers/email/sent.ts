/**
 * The sent-mail cookie: where the last sign-in email of this browser went, so the verify-request
 * page can name the address and send the mail again (issue #26). Set with the redirect to that
 * page, it holds, sealed (JWE with the secret, salt = the cookie name), the email provider's id,
 * the address and the callback URL, for an hour. The address never travels in a URL, and the page
 * trusts nothing but this cookie; sending again is the provider's normal sign-in POST (CSRF and
 * rate limits apply), so the cookie grants nothing by itself.
 */
import type { Cookie } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { openToken, sealToken } from "../../jwt/codec.js"
import { clearCookie } from "../../session/chunks.js"

export interface SentEmail {
  /** The email provider's id. */
  provider: string
  /** The address the mail went to (normalised, as the provider sent it). */
  identifier: string
  callbackUrl: string
  /** The mail before this one went to the same address (the page says it was sent again). */
  resent?: boolean
}

/** Long enough to wait for a slow mail and reload the page; short enough not to linger. */
const MAX_AGE = 60 * 60

/** `__Host-` on HTTPS: Secure, Path=/, no Domain, so a sibling subdomain cannot plant one. */
function sentCookieName(ctx: Pick<RequestContext, "request">): string {
  return ctx.request.secure ? "__Host-gatehouse.email-sent" : "gatehouse.email-sent"
}

function cookieOptions(ctx: RequestContext, maxAge: number) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: ctx.request.secure, maxAge }
}

/** The cookie that remembers `sent` for the verify-request page. */
export function sentCookie(ctx: RequestContext, sent: Omit<SentEmail, "resent">): Cookie {
  const name = sentCookieName(ctx)
  const previous = readSentEmail(ctx)
  const resent = previous?.provider === sent.provider && previous.identifier === sent.identifier
  const value = sealToken({ provider: sent.provider, identifier: sent.identifier, callbackUrl: sent.callbackUrl, resent }, ctx.config.secrets[0] as string, name, MAX_AGE)
  return { name, value, options: cookieOptions(ctx, MAX_AGE) }
}

/** Where this browser's last sign-in email went, if its cookie opens with one of the secrets and has not expired. */
export function readSentEmail(ctx: RequestContext): SentEmail | undefined {
  const name = sentCookieName(ctx)
  const value = ctx.request.cookies[name]
  if (typeof value !== "string") return undefined
  const payload = openToken(value, ctx.config.secrets, name, undefined, 0)?.payload as Partial<SentEmail> | undefined
  if (!payload || typeof payload.provider !== "string" || typeof payload.identifier !== "string" || typeof payload.callbackUrl !== "string") return undefined
  return { provider: payload.provider, identifier: payload.identifier, callbackUrl: payload.callbackUrl, resent: payload.resent === true }
}

/** Forgets the address (on sign-out: the next person at this browser is not shown it). */
export function clearSentEmail(ctx: RequestContext): void {
  if (typeof ctx.request.cookies[sentCookieName(ctx)] !== "string") return
  ctx.outCookies.push(clearCookie(sentCookieName(ctx), cookieOptions(ctx, 0)))
}
