/**
 * The `rateLimit` option, resolved once. On by default in production (NODE_ENV=production), off
 * otherwise; `true`/`false` or `{ enabled }` decide explicitly. Each sign-in method has a rule per
 * client address and one per identifier (the email or username tried), each a number of attempts
 * in a fixed window of seconds; `false` drops a rule or a whole method.
 */
import { InvalidOption } from "../errors.js"

export type LimitedMethod = "credentials" | "email" | "emailCallback" | "webauthn" | "webauthnOptions" | "twoFactor"

export interface RateLimitRule {
  /** Attempts allowed in one window. */
  limit: number
  /** The window's length in seconds; it starts with the first attempt. */
  window: number
}

export interface RateLimitMethodOptions {
  ip?: RateLimitRule | false
  identifier?: RateLimitRule | false
}

export interface RateLimitOptions {
  /** Default: true in production. */
  enabled?: boolean
  credentials?: RateLimitMethodOptions | false
  email?: RateLimitMethodOptions | false
  emailCallback?: RateLimitMethodOptions | false
  /** `GET webauthn-options/<provider>`: each answer makes a challenge (and may read the database). */
  webauthnOptions?: RateLimitMethodOptions | false
  webauthn?: RateLimitMethodOptions | false
  /** Second-factor codes (issue #16), per client address and per user; limited even when rate limiting is off. */
  twoFactor?: RateLimitMethodOptions | false
}

export interface ResolvedMethodLimits {
  readonly ip?: RateLimitRule
  readonly identifier?: RateLimitRule
}

export type ResolvedRateLimit = Readonly<Partial<Record<LimitedMethod, ResolvedMethodLimits>>>

/**
 * The defaults: guessing a password is slowed to 10 tries per account per 15 minutes; one
 * address gets 50 credential attempts per 15 minutes, 30 sign-in mails an hour (5 per address
 * mailed), 60 views of the email pages (verify-request, the link's confirm page) and sign-in
 * POSTs (link or code) per 15 minutes (10 per address, so codes cannot be guessed from many
 * browsers), and 50 passkey verifications per 15 minutes.
 */
export const DEFAULT_RATE_LIMITS: Readonly<Record<LimitedMethod, ResolvedMethodLimits>> = Object.freeze({
  credentials: { ip: { limit: 50, window: 900 }, identifier: { limit: 10, window: 900 } },
  email: { ip: { limit: 30, window: 3600 }, identifier: { limit: 5, window: 3600 } },
  emailCallback: { ip: { limit: 60, window: 900 }, identifier: { limit: 10, window: 900 } },
  webauthn: { ip: { limit: 50, window: 900 } },
  // Issue #13: the passkey options (registration and authentication), counted apart from the
  // verifications, twice their number (a page may ask for options on load and again on a click).
  webauthnOptions: { ip: { limit: 100, window: 900 } },
  // Issue #16: a 6-digit code (3 valid at a time) must not be guessable: 5 tries per user per 15 minutes.
  twoFactor: { ip: { limit: 50, window: 900 }, identifier: { limit: 5, window: 900 } },
})

const METHODS: readonly LimitedMethod[] = ["credentials", "email", "emailCallback", "webauthn", "webauthnOptions", "twoFactor"]

/** The rules each method can have: passkey verification has no identifier to count. */
const RULES: Readonly<Record<LimitedMethod, readonly (keyof RateLimitMethodOptions)[]>> = {
  credentials: ["ip", "identifier"],
  email: ["ip", "identifier"],
  emailCallback: ["ip", "identifier"],
  webauthn: ["ip"],
  webauthnOptions: ["ip"],
  twoFactor: ["ip", "identifier"],
}

/** A key the option does not know is a typo that would silently leave the defaults in force. */
function refuseUnknown(value: object, known: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new InvalidOption(`${path}.${key} is not an option (expected ${known.join(", ")})`)
  }
}

function rule(value: unknown, fallback: RateLimitRule | undefined, path: string): RateLimitRule | undefined {
  if (value === false) return undefined
  if (value === undefined) return fallback
  const { limit, window } = (value ?? {}) as Partial<RateLimitRule>
  if (typeof value !== "object" || !Number.isInteger(limit) || (limit as number) < 1 || typeof window !== "number" || !(window > 0) || !Number.isFinite(window)) {
    throw new InvalidOption(`${path} must be false or { limit: a whole number ≥ 1, window: seconds > 0 } (got ${JSON.stringify(value)})`)
  }
  refuseUnknown(value as object, ["limit", "window"], path)
  return Object.freeze({ limit: limit as number, window })
}

/**
 * The rules in force, or undefined when rate limiting is off. The option is checked whether or
 * not limiting is on, so a mistake shows in development rather than on the first production start.
 */
export function resolveRateLimit(option: unknown, production: boolean): ResolvedRateLimit | undefined {
  if (option !== undefined && typeof option !== "boolean" && (typeof option !== "object" || option === null)) {
    throw new InvalidOption(`rateLimit must be true, false or an object (got ${JSON.stringify(option)})`)
  }
  const options = (typeof option === "object" ? option : {}) as RateLimitOptions
  refuseUnknown(options, ["enabled", ...METHODS], "rateLimit")
  if (options.enabled !== undefined && typeof options.enabled !== "boolean") {
    throw new InvalidOption(`rateLimit.enabled must be true or false (got ${JSON.stringify(options.enabled)})`)
  }
  const resolved: Partial<Record<LimitedMethod, ResolvedMethodLimits>> = {}
  for (const method of METHODS) {
    const given = options[method]
    if (given === false) continue
    if (given !== undefined && (typeof given !== "object" || given === null)) {
      throw new InvalidOption(`rateLimit.${method} must be false or { ${RULES[method].join(", ")} } (got ${JSON.stringify(given)})`)
    }
    if (given) {
      const extra = Object.keys(given).find((key) => !RULES[method].includes(key as keyof RateLimitMethodOptions) && !(key === "identifier" && given.identifier === false))
      if (extra) throw new InvalidOption(`rateLimit.${method}.${extra} is not an option (expected ${RULES[method].join(", ")})`)
    }
    const defaults = DEFAULT_RATE_LIMITS[method]
    const ip = rule(given?.ip, defaults.ip, `rateLimit.${method}.ip`)
    const identifier = rule(given?.identifier, defaults.identifier, `rateLimit.${method}.identifier`)
    if (ip || identifier) resolved[method] = Object.freeze({ ip, identifier })
  }
  const enabled = typeof option === "boolean" ? option : (options.enabled ?? production)
  return enabled ? Object.freeze(resolved) : undefined
}
