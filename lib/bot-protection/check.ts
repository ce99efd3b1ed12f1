/**
 * The check at each guarded door (issue #33): sign-up, an email sign-in request, forgot-password,
 * and a credentials or password sign-in once the identifier or the address failed
 * `afterFailures` times in the window. The answer comes in the widget's form field (`altcha`,
 * `cf-turnstile-response`, `h-captcha-response`, `g-recaptcha-response`), in `botToken`, or in the
 * `X-Bot-Token` header (SPAs). Refused before anything is sent or created: `BotChallengeFailed`
 * (counted, audited; ALTCHA's refused answers make its next challenges harder: altcha/abuse.ts), or `BotCheckUnavailable`
 * when a vendor cannot answer and the door fails closed. A no-op with the option off.
 */
import { createHash } from "node:crypto"
import type { RequestContext } from "../core/context.js"
import { audit } from "../audit/emit.js"
import { countBotRefusal } from "../telemetry/counts.js"
import { BotChallengeFailed, BotCheckUnavailable } from "./errors.js"
import type { BotAction, ResolvedBotProtection } from "./settings.js"

/** Longer than any widget's answer: refused unread. */
const MAX_TOKEN = 8192

const digest = (value: string) => createHash("sha256").update(value.normalize("NFKC").trim().toLowerCase()).digest("base64url").slice(0, 32)
const failKey = (kind: "id" | "ip", value: string) => `bot:fail:${kind}:${kind === "id" ? digest(value) : value}`
const needKey = (kind: "id" | "ip", value: string) => `bot:need:${kind}:${kind === "id" ? digest(value) : value}`

function bodyField(ctx: RequestContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined
  return body && Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined
}

function tokenOf(ctx: RequestContext, field: string): string | undefined {
  const value = bodyField(ctx, field) ?? bodyField(ctx, "botToken") ?? ctx.request.header("x-bot-token")
  return typeof value === "string" && value && value.length <= MAX_TOKEN ? value : undefined
}

/** Sign-in: asked only once the identifier or the client's address failed too often lately. */
async function signInNeedsAnswer(ctx: RequestContext, settings: ResolvedBotProtection, identifier: string | undefined): Promise<boolean> {
  const rule = settings.actions.signIn
  if (!rule) return false
  if (rule.afterFailures === 0) return true
  const store = ctx.config.store
  const ip = ctx.request.clientAddress
  const marks = await Promise.all([identifier ? store.getValue?.(needKey("id", identifier)) : null, ip ? store.getValue?.(needKey("ip", ip)) : null])
  return marks.some((mark) => mark)
}

function refuse(ctx: RequestContext, action: BotAction, reason: string): never {
  countBotRefusal(ctx.config, action)
  audit(ctx.config, { type: "bot.refused", outcome: "failure", reason: "BotChallengeFailed", action, check: reason })
  throw new BotChallengeFailed(`The ${action} request carried ${reason === "missing" ? "no" : "a refused"} challenge answer`)
}

/** Throws unless the request proves a human at this door (or the door is not guarded). */
export async function requireHuman(ctx: RequestContext, action: BotAction, identifier?: string): Promise<void> {
  const settings = ctx.config.botProtection
  if (!settings) return
  if (action === "signIn" ? !(await signInNeedsAnswer(ctx, settings, identifier)) : !settings.actions[action]) return
  const verifier = await settings.verifier()
  const token = tokenOf(ctx, verifier.field)
  if (!token) refuse(ctx, action, "missing")
  const outcome = await verifier.verify(ctx.config, token, { action, ip: ctx.request.clientAddress })
  if (outcome === "ok") return
  if (outcome === "refused") refuse(ctx, action, "refused")
  const open = settings.onOutage[action] === "open"
  audit(ctx.config, { type: "bot.unavailable", outcome: open ? "success" : "failure", ...(!open && { reason: "BotCheckUnavailable" }), action, provider: settings.provider })
  if (open) {
    ctx.config.logger.error(new BotCheckUnavailable(`Bot protection (${settings.provider}) could not answer; ${action} let through (onOutage: open)`))
    return
  }
  throw new BotCheckUnavailable(`Bot protection (${settings.provider}) could not answer; ${action} refused (onOutage: closed)`)
}

/** A failed credentials or password sign-in: counted for the identifier and the address; past the threshold, both must answer a challenge. */
export async function noteSignInFailure(ctx: RequestContext, identifier: string | undefined): Promise<void> {
  const rule = ctx.config.botProtection?.actions.signIn
  if (!rule || rule.afterFailures === 0) return
  const store = ctx.config.store
  const ip = ctx.request.clientAddress
  const marks: Array<Promise<void>> = []
  for (const [kind, value] of [["id", identifier], ["ip", ip]] as const) {
    if (!value) continue
    marks.push(
      store.hit(failKey(kind, value), rule.window).then(async ({ count }) => {
        if (count >= rule.afterFailures) await store.putValue?.(needKey(kind, value), "1", rule.window)
      }),
    )
  }
  await Promise.all(marks).catch((error: unknown) => ctx.config.logger.error(error as Error))
}

/** A successful sign-in: the identifier's failures are forgotten (the address's stay: others may share it). */
export async function forgetSignInFailures(ctx: RequestContext, identifier: string | undefined): Promise<void> {
  const rule = ctx.config.botProtection?.actions.signIn
  if (!rule || !identifier) return
  const store = ctx.config.store
  await Promise.all([store.reset(failKey("id", identifier)), store.putValue?.(needKey("id", identifier), "", 1)]).catch((error: unknown) => ctx.config.logger.error(error as Error))
}
