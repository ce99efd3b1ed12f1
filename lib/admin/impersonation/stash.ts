/**
 * The admin's own session while they impersonate someone (issue #30): the session cookie's value
 * as the browser held it, sealed (encrypted and authenticated with the secret, as a session
 * cookie is) into the `gatehouse.impersonator` cookie (`__Host-` on HTTPS; chunked when long).
 * Stopping the impersonation puts it back as it was: the admin's sign-in, its `amr` and its
 * `authTime` unchanged. Nothing else can read it or make one: a forged or altered value opens as
 * nothing.
 */
import type { Cookie, CookieOption } from "../../types.js"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { RequestContext } from "../../core/context.js"
import { nowSeconds, openToken, sealToken } from "../../jwt/codec.js"
import { clearChunked, readChunked, writeChunked } from "../../session/chunks.js"
import { databaseSessionId } from "../../devices/ids.js"
import { announce } from "../../devices/runtime.js"
import { endSignedOutSession } from "../../devices/sign-out.js"

export interface Stashed {
  /** The admin's session cookie value. */
  value: string
  adminId: string
}

export function stashCookie(ctx: RequestContext): CookieOption {
  const secure = ctx.cookies.sessionToken.options.secure === true
  return {
    name: secure ? "__Host-gatehouse.impersonator" : "gatehouse.impersonator",
    options: { httpOnly: true, sameSite: "lax", path: "/", secure },
  }
}

/** The cookies that keep `stashed` for as long as the admin's own session could last. */
export function stashCookies(ctx: RequestContext, config: ResolvedConfig, stashed: Stashed): Cookie[] {
  const option = stashCookie(ctx)
  const maxAge = config.session.maxAge
  const sealed = sealToken({ value: stashed.value, adminId: stashed.adminId }, config.secrets[0] as string, option.name, maxAge)
  return writeChunked(option, sealed, ctx.request.cookies, new Date((nowSeconds() + maxAge) * 1000))
}

/** The admin's session kept by this browser, or null (none, expired, or not made by this app). */
export function readStash(ctx: RequestContext): Stashed | null {
  const option = stashCookie(ctx)
  const sealed = readChunked(ctx.request.cookies, option.name)
  if (!sealed) return null
  const opened = openToken(sealed, ctx.config.secrets, option.name)
  const payload = opened?.payload as { value?: unknown; adminId?: unknown } | undefined
  if (!payload || typeof payload.value !== "string" || typeof payload.adminId !== "string") return null
  return { value: payload.value, adminId: payload.adminId }
}

export function clearStash(ctx: RequestContext): Cookie[] {
  return clearChunked(stashCookie(ctx), ctx.request.cookies)
}

/**
 * Signing out while impersonating: the admin's own stashed session ends too (on every process),
 * not only this browser's copy of it. Failures are logged; the sign-out goes on.
 */
export async function endStashedSession(ctx: RequestContext): Promise<void> {
  const stashed = readStash(ctx)
  if (!stashed) return
  const { config } = ctx
  try {
    if (config.session.strategy === "database") {
      await config.adapter?.deleteSession?.(stashed.value)
      await announce(config, { sid: databaseSessionId(stashed.value) })
    } else {
      const opened = openToken(stashed.value, config.secrets, ctx.cookies.sessionToken.name)
      if (opened) await endSignedOutSession(config, opened.payload)
    }
  } catch (error) {
    config.logger.error(error as Error)
  }
}
