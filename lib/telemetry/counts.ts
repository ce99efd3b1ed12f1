/**
 * The counters outside actions: session reads (the only instrumentation on the requireAuth and
 * authSession path: one counter add with a prebuilt attribute set, no span), rate-limit refusals,
 * revocations and token refreshes. Each is a no-op when the configuration's telemetry is off.
 */
import type { Attributes } from "@opentelemetry/api"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { SessionResult } from "../session/cookie-strategy.js"
import type { SessionReadOutcome } from "./instruments.js"
import { ATTR, errorType } from "./names.js"

function readOutcome(attributes: Readonly<Record<SessionReadOutcome, Attributes>>, result: SessionResult): Attributes {
  return result.session ? attributes.active : result.cookies.length ? attributes.invalid : attributes.none
}

/** Counts a session read when it settles (at once when it is already a result); `read` itself when telemetry is off. */
export function countSessionRead(config: ResolvedConfig, read: SessionResult | Promise<SessionResult>): SessionResult | Promise<SessionResult> {
  const telemetry = config.telemetry
  if (!telemetry) return read
  const attributes = telemetry.readAttributes[config.session.strategy]
  // A read that answered at once is counted without making a closure (every requireAuth comes here).
  if (!(read instanceof Promise)) {
    telemetry.sessionReads.add(1, readOutcome(attributes, read))
    return read
  }
  return read.then(
    (result) => {
      telemetry.sessionReads.add(1, readOutcome(attributes, result))
      return result
    },
    (error: unknown) => {
      telemetry.sessionReads.add(1, attributes.error)
      throw error
    },
  )
}

export function countRateLimitRefusal(config: ResolvedConfig, method: string): void {
  config.telemetry?.rateLimitRefusals.add(1, { [ATTR.rateLimitMethod]: method })
}

/** A request refused by bot protection (issue #33), by the action it guarded. */
export function countBotRefusal(config: ResolvedConfig, action: string): void {
  config.telemetry?.botRefusals.add(1, { [ATTR.botAction]: action })
}

/** `count` sessions ended (`others` may end several, or none). */
export function countRevocation(config: ResolvedConfig, scope: "session" | "others" | "user" | "backchannel", count = 1): void {
  if (count > 0) config.telemetry?.revocations.add(count, { [ATTR.revocationScope]: scope })
}

/** Counts a refresh of `providerId`'s access token when it settles. */
export function countRefresh<T>(config: ResolvedConfig, providerId: string, refresh: Promise<T>): Promise<T> {
  const telemetry = config.telemetry
  if (!telemetry) return refresh
  return refresh.then(
    (result) => {
      telemetry.refreshes.add(1, { [ATTR.providerId]: providerId, [ATTR.outcome]: "success" })
      return result
    },
    (error: unknown) => {
      telemetry.refreshes.add(1, { [ATTR.providerId]: providerId, [ATTR.outcome]: "failure", [ATTR.errorType]: errorType(error) })
      throw error
    },
  )
}
