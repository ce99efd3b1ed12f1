/**
 * Counting sign-in attempts against the rules in force, in the configured state store. Every
 * attempt counts before it is made (so parallel guesses cannot slip past the limit); a successful
 * credentials sign-in forgets its identifier's count, so typing errors do not pile up. Over a
 * limit, the attempt is not made: `RateLimited` with the seconds until the window ends, even for
 * the right password (the answer must not tell whether it was). Exceeding a limit is logged once
 * per window.
 */
import { createHash } from "node:crypto"
import { RateLimited } from "../errors.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { LimitedMethod, RateLimitRule } from "./options.js"
import { audit } from "../audit/emit.js"
import { countRateLimitRefusal } from "../telemetry/counts.js"

/**
 * Identifiers are stored hashed: the store never holds the addresses or names people typed. They
 * are counted in a normal form (NFKC, trimmed, lower case), so that variants an application may
 * well treat as the same account (`ALICE`, ` alice `, full-width `ａｌｉｃｅ`) share one counter.
 */
function identifierKey(method: LimitedMethod, identifier: string): string {
  const digest = createHash("sha256").update(identifier.normalize("NFKC").trim().toLowerCase()).digest("base64url")
  return `rl:${method}:id:${digest.slice(0, 32)}`
}

interface Check {
  key: string
  rule: RateLimitRule
  what: string
}

/** `rules` replaces the configured ones (two-factor codes are limited even when rate limiting is off). */
export async function enforceRateLimit(
  config: ResolvedConfig,
  method: LimitedMethod,
  address: string | undefined,
  identifier?: string,
  rules = config.rateLimit?.[method],
): Promise<void> {
  if (!rules) return
  const checks: Check[] = []
  if (rules.ip && address) checks.push({ key: `rl:${method}:ip:${address}`, rule: rules.ip, what: `client address ${address}` })
  if (rules.identifier && identifier) checks.push({ key: identifierKey(method, identifier), rule: rules.identifier, what: "one identifier" })
  if (!checks.length) return
  const counts = await Promise.all(checks.map((check) => config.store.hit(check.key, check.rule.window)))
  let retryAfter = 0
  const over: string[] = []
  let tripped = false
  counts.forEach(({ count, resetAt }, index) => {
    const { rule, what } = checks[index] as Check
    if (count <= rule.limit) return
    retryAfter = Math.max(retryAfter, (resetAt - Date.now()) / 1000)
    over.push(`${what}: ${rule.limit} attempts in ${rule.window} s`)
    tripped ||= count === rule.limit + 1
  })
  if (!over.length) return
  countRateLimitRefusal(config, method)
  // The audit trail gets every refusal (issue #20); the log only the first of each window.
  audit(config, { type: "rate_limited", outcome: "failure", reason: "RateLimited", limit: method, ...(address && { ip: address }) })
  const error = new RateLimited(`Too many ${method} sign-in attempts (${over.join("; ")}); refused until the window ends`, { retryAfter })
  // Logged when a limit is first exceeded in its window, not on every refused attempt.
  if (tripped) config.logger.error(error)
  throw error
}

/** After a successful sign-in: the identifier's failed attempts are forgotten. */
export async function forgiveIdentifier(config: ResolvedConfig, method: LimitedMethod, identifier: string | undefined, rules = config.rateLimit?.[method]): Promise<void> {
  if (!rules?.identifier || !identifier) return
  await config.store.reset(identifierKey(method, identifier))
}
