/**
 * Configuration checks. Each throws a named error whose message gives the option path, the rule
 * and the value received, e.g. "session.updateAge must be a non-negative number of seconds (got -1)".
 * They run once per configuration object, inside `resolveConfig`.
 */
import { isStructuredLogger } from "../structured-logger.js"
import { DuplicateProviderId, InvalidOption, MissingAdapter, MissingAuthorize, UnsupportedStrategy } from "../../errors.js"
import type { Adapter } from "../../adapters.js"
import { PROVIDER_TYPES, type Provider } from "../../providers/types.js"
import { outboundLimits } from "../../outbound/options.js"
import type { AuthConfig, CapabilityConfigOptions, CookieOptions, JWTOptions, PagesOptions, SessionOptions, Theme } from "../../types.js"
import { LOG_LEVELS, type LogLevel } from "../logger.js"
import { show } from "./show.js"

function invalid(path: string, rule: string, value: unknown): never {
  throw new InvalidOption(`${path} ${rule} (got ${show(value)})`)
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Every top-level option of the core's `AuthConfig` (a capability names its own: its options'
 * `names`), and the options of `session` and `jwt`: the README's options table is tested against
 * these lists. The `_…Listed` records below fail to type-check when the interfaces gain an option
 * a list lacks, and `satisfies` when a list names one they lack.
 */
export const CONFIG_OPTIONS = Object.freeze([
  "providers", "adapter", "basePath", "secret", "session", "jwt", "callbacks", "events", "pages", "theme",
  "locale", "messages", "cookies", "useSecureCookies", "trustHost", "skipCSRFCheck", "redirectProxyUrl",
  "logLevel", "logger", "debug", "rateLimit", "store", "diagnostics", "experimental", "raw", "accountLinking", "telemetry", "requestId",
] as const satisfies readonly (keyof AuthConfig)[])
export const SESSION_OPTIONS = Object.freeze(["strategy", "maxAge", "updateAge", "generateSessionToken", "seal", "unseal", "recentSignIn", "cacheSize"] as const satisfies readonly (keyof SessionOptions)[])
export const JWT_OPTIONS = Object.freeze(["encode", "decode", "maxAge"] as const satisfies readonly (keyof JWTOptions)[])
const _configOptionsListed: Record<Exclude<keyof AuthConfig, (typeof CONFIG_OPTIONS)[number] | keyof CapabilityConfigOptions>, never> = {}
const _sessionOptionsListed: Record<Exclude<keyof SessionOptions, (typeof SESSION_OPTIONS)[number]>, never> = {}
const _jwtOptionsListed: Record<Exclude<keyof JWTOptions, (typeof JWT_OPTIONS)[number]>, never> = {}

export function assertConfigObject(config: unknown): asserts config is AuthConfig {
  if (!isPlainObject(config)) invalid("config", "must be an object", config)
}

/** Letters, digits, `-` and `_`: an id appears in URLs, cookie values and HTML attributes. */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/

export function assertProviders(list: unknown): Provider[] {
  if (!Array.isArray(list)) invalid("providers", "must be a list of providers", list)
  const seen = new Set<string>()
  return list.map((entry, index) => {
    const path = `providers[${index}]`
    const provider = typeof entry === "function" ? (entry as () => unknown)() : entry
    if (!isPlainObject(provider)) invalid(path, "must be a provider object or factory", provider)
    if (typeof provider.id !== "string" || !PROVIDER_ID.test(provider.id)) {
      invalid(`${path}.id`, "must be 1-64 letters, digits, '-' or '_'", provider.id)
    }
    if (!PROVIDER_TYPES.includes(provider.type as never)) {
      invalid(`${path}.type`, `must be one of ${PROVIDER_TYPES.join(", ")}`, provider.type)
    }
    if (typeof provider.name !== "string" || !provider.name.trim()) invalid(`${path}.name`, "must be a non-empty string", provider.name)
    if (seen.has(provider.id)) {
      throw new DuplicateProviderId(`${path}.id: "${provider.id}" is already used by another provider; give each provider its own id`)
    }
    seen.add(provider.id)
    if (provider.type === "credentials") {
      if (typeof provider.authorize !== "function") {
        throw new MissingAuthorize(`${path} (credentials provider "${provider.id}") needs an authorize(credentials, request) function`)
      }
      if (provider.credentials !== undefined && !isPlainObject(provider.credentials)) {
        invalid(`${path}.credentials`, "must be an object of form fields", provider.credentials)
      }
    }
    if (provider.type === "oauth" || provider.type === "oidc") outboundLimits(provider.outbound, `${path}.outbound`)
    return provider as unknown as Provider
  })
}

export function assertSecrets(secret: unknown): string[] | undefined {
  if (secret === undefined) return undefined
  const list = Array.isArray(secret) ? secret : [secret]
  if (!list.length) invalid("secret", "must be a non-empty string or a non-empty list of strings", secret)
  list.forEach((value, index) => {
    if (typeof value !== "string" || !value) invalid(Array.isArray(secret) ? `secret[${index}]` : "secret", "must be a non-empty string", value)
  })
  return list as string[]
}

export interface ValidSessionOptions {
  strategy: "cookie" | "database"
  maxAge: number | Date
  updateAge: number
  recentSignIn: number
  cacheSize: number
}

export function assertSession(session: AuthConfig["session"], adapter: Adapter | undefined, defaults: { maxAge: number; updateAge: number; recentSignIn: number; cacheSize: number }): ValidSessionOptions {
  if (session !== undefined && !isPlainObject(session)) invalid("session", "must be an object", session)
  const strategy = session?.strategy ?? (adapter ? "database" : "cookie")
  if (strategy !== "cookie" && strategy !== "jwt" && strategy !== "database") {
    throw new UnsupportedStrategy(`session.strategy must be "cookie", "jwt" or "database" (got ${show(strategy)})`)
  }
  if (strategy === "database" && !adapter) {
    throw new MissingAdapter('session.strategy "database" needs an adapter: set `adapter`, or use the "cookie" strategy')
  }
  const maxAge = session?.maxAge ?? defaults.maxAge
  if (maxAge instanceof Date) {
    if (Number.isNaN(maxAge.getTime())) invalid("session.maxAge", "must be a positive number of seconds or a valid Date", maxAge)
  } else if (typeof maxAge !== "number" || !Number.isFinite(maxAge) || maxAge <= 0) {
    invalid("session.maxAge", "must be a positive number of seconds or a valid Date", maxAge)
  }
  const updateAge = session?.updateAge ?? defaults.updateAge
  if (typeof updateAge !== "number" || !Number.isFinite(updateAge) || updateAge < 0) {
    invalid("session.updateAge", "must be a non-negative number of seconds", updateAge)
  }
  for (const name of ["generateSessionToken", "seal", "unseal"] as const) {
    if (session?.[name] !== undefined && typeof session[name] !== "function") invalid(`session.${name}`, "must be a function", session[name])
  }
  const recentSignIn = session?.recentSignIn ?? defaults.recentSignIn
  if (typeof recentSignIn !== "number" || !Number.isInteger(recentSignIn) || recentSignIn <= 0) {
    invalid("session.recentSignIn", "must be a positive integer number of seconds", recentSignIn)
  }
  const cacheSize = session?.cacheSize ?? defaults.cacheSize
  if (typeof cacheSize !== "number" || !Number.isInteger(cacheSize) || cacheSize <= 0) {
    invalid("session.cacheSize", "must be a positive integer", cacheSize)
  }
  return { strategy: strategy === "database" ? "database" : "cookie", maxAge, updateAge, recentSignIn, cacheSize }
}

export function assertJwtOptions(jwt: AuthConfig["jwt"]): void {
  if (jwt === undefined) return
  if (!isPlainObject(jwt)) invalid("jwt", "must be an object", jwt)
  for (const name of ["encode", "decode"] as const) {
    if (jwt[name] !== undefined && typeof jwt[name] !== "function") invalid(`jwt.${name}`, "must be a function", jwt[name])
  }
  if (jwt.maxAge !== undefined && (typeof jwt.maxAge !== "number" || !Number.isFinite(jwt.maxAge) || jwt.maxAge <= 0)) {
    invalid("jwt.maxAge", "must be a positive number of seconds", jwt.maxAge)
  }
}

export function assertFunctions(path: "callbacks" | "events", record: unknown, names: readonly string[]): void {
  if (record === undefined) return
  if (!isPlainObject(record)) invalid(path, "must be an object of functions", record)
  for (const [name, value] of Object.entries(record)) {
    if (!names.includes(name)) invalid(`${path}.${name}`, `is not a known ${path === "callbacks" ? "callback" : "event"} (known: ${names.join(", ")})`, name)
    if (value !== undefined && typeof value !== "function") invalid(`${path}.${name}`, "must be a function", value)
  }
}

export function assertLogLevel(level: unknown): LogLevel | undefined {
  if (level === undefined) return undefined
  if (!LOG_LEVELS.includes(level as LogLevel)) invalid("logLevel", `must be one of ${LOG_LEVELS.join(", ")}`, level)
  return level as LogLevel
}

export function assertBasePath(basePath: unknown): string | undefined {
  if (basePath === undefined) return undefined
  if (typeof basePath !== "string" || !/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(basePath) || basePath.includes("//")) {
    invalid("basePath", "must be a URL path starting with '/'", basePath)
  }
  return basePath.length > 1 ? basePath.replace(/\/+$/, "") : basePath
}

/** An absolute http(s) URL, or a path on this site. */
function isSafeUrlOrPath(value: string): boolean {
  if (value.startsWith("/")) return !value.startsWith("//") && !value.startsWith("/\\")
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** The core's pages an app may replace; each capability adds its own (its options' `pages`). */
export const CORE_PAGES = Object.freeze(["signIn", "signOut", "error", "verifyRequest", "newUser"] as const)

export function assertPages(pages: unknown, known: readonly string[]): PagesOptions {
  if (pages === undefined) return {}
  if (!isPlainObject(pages)) invalid("pages", "must be an object", pages)
  for (const [name, value] of Object.entries(pages)) {
    if (!known.includes(name)) invalid(`pages.${name}`, `is not a page (known: ${known.join(", ")})`, name)
    if (value !== undefined && (typeof value !== "string" || !isSafeUrlOrPath(value))) {
      invalid(`pages.${name}`, "must be a path starting with '/' or an http(s) URL", value)
    }
  }
  return pages as PagesOptions
}

/** A CSS colour: hex, a named colour, or an rgb()/hsl()/oklch()-style function of plain numbers. */
export const CSS_COLOR = /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|[a-z]{3,30}|(rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch)\([0-9a-z.,%/ +-]{1,60}\))$/i

export function assertTheme(theme: unknown): Theme {
  if (theme === undefined) return {}
  if (!isPlainObject(theme)) invalid("theme", "must be an object", theme)
  const { colorScheme, brandColor, buttonText, logo, appName } = theme
  if (colorScheme !== undefined && !["auto", "dark", "light"].includes(colorScheme as string)) {
    invalid("theme.colorScheme", 'must be "auto", "dark" or "light"', colorScheme)
  }
  for (const [name, value] of [["brandColor", brandColor], ["buttonText", buttonText]] as const) {
    if (value !== undefined && (typeof value !== "string" || !CSS_COLOR.test(value.trim()))) {
      invalid(`theme.${name}`, "must be a CSS colour such as #2563eb, rgb(37 99 235) or teal", value)
    }
  }
  if (logo !== undefined && (typeof logo !== "string" || !isSafeUrlOrPath(logo))) {
    invalid("theme.logo", "must be an http(s) URL or a path starting with '/'", logo)
  }
  if (appName !== undefined && (typeof appName !== "string" || !appName.trim() || appName.length > 100)) {
    invalid("theme.appName", "must be a name of 1 to 100 characters", appName)
  }
  return theme as Theme
}

/**
 * RFC 6265bis §4.1.3: browsers drop a `__Secure-` cookie without `Secure`, and a `__Host-` cookie
 * without `Secure`, with a `Domain` or with a `Path` other than `/`; `SameSite=None` also needs
 * `Secure`. Catch those at start-up instead of as sign-ins that silently fail.
 */
export function assertCookieOverride(path: string, name: string, options: CookieOptions): void {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) invalid(`${path}.name`, "must be a valid cookie name", name)
  if (name.startsWith("__Secure-") || name.startsWith("__Host-")) {
    if (options.secure === false) invalid(`${path}.options.secure`, `must not be false for a cookie named ${name}`, options.secure)
  }
  if (name.startsWith("__Host-")) {
    if (options.domain !== undefined) invalid(`${path}.options.domain`, `must not be set for a cookie named ${name}`, options.domain)
    if (options.path !== undefined && options.path !== "/") invalid(`${path}.options.path`, `must be "/" for a cookie named ${name}`, options.path)
  }
  if (options.sameSite === "none" && options.secure === false) {
    invalid(`${path}.options.sameSite`, '"none" needs secure: true', options.sameSite)
  }
}

export function assertUrl(path: string, value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== "string") invalid(path, "must be an absolute http(s) URL", value)
  try {
    const url = new URL(value)
    if (url.protocol === "http:" || url.protocol === "https:") return value
  } catch {
    // fall through
  }
  return invalid(path, "must be an absolute http(s) URL", value)
}

export function assertAdapter(adapter: unknown): Adapter | undefined {
  if (adapter === undefined) return undefined
  if (!isPlainObject(adapter)) invalid("adapter", "must be an adapter object", adapter)
  return adapter as Adapter
}

export function assertLogger(logger: unknown): void {
  // A pino or winston instance (lib/core/structured-logger.ts).
  if (logger === undefined || isStructuredLogger(logger)) return
  if (!isPlainObject(logger)) invalid("logger", "must be a pino or winston instance, or an object with error, warn and/or debug functions", logger)
  for (const level of ["error", "warn", "debug"] as const) {
    if (logger[level] !== undefined && typeof logger[level] !== "function") invalid(`logger.${level}`, "must be a function", logger[level])
  }
}
