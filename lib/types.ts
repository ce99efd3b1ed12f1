/**
 * Public types: the configuration record, sessions, tokens, callbacks and events, following the
 * spec's tables. The shared shapes (user, session, token, profile, account, theme) live in
 * `base-types.ts`, provider-specific types in `providers/types.ts`, adapter types in
 * `adapters.ts`, callback and event types in `callbacks.ts`; this file re-exports them. Kept as one
 * file: it is declarations only, read as the reference of `AuthConfig`, and the README's options
 * table is checked against it (__tests__/docs). A capability's options and events are declared in
 * its folder and join `AuthConfig` and `EventCallbacks` by declaration merging.
 */
import type { Adapter } from "./adapters.js"
import type { Awaitable, JWT, Theme } from "./base-types.js"
import type { LoggerInstance, LogLevel } from "./core/logger.js"
import type { StructuredLoggerInstance } from "./core/structured-logger.js"
import type { RequestIdOptions } from "./core/config/request-id.js"
import type { RateLimitOptions } from "./rate-limit/options.js"
import type { AccountLinkingOptions } from "./linking/options.js"
import type { StateStore } from "./shared-store/types.js"
import type { Provider } from "./providers/types.js"
import type { raw, skipCSRFCheck } from "./core/symbols.js"
import type { AuthRequestLike, CallbacksOptions, EventCallbacks } from "./callbacks.js"
import type { LocaleMessages } from "./i18n/options.js"
import type { TelemetryOptions } from "./telemetry/options.js"

export type * from "./base-types.js"
export type { LogLevel, LoggerInstance }
export type { RateLimitOptions, RateLimitMethodOptions, RateLimitRule } from "./rate-limit/options.js"
export type { StateStore } from "./shared-store/types.js"
export type { AuditRecord, AuditType } from "./audit/types.js"
export type { RequestIdOptions } from "./core/config/request-id.js"
export type * from "./callbacks.js"

/**
 * Each capability's own pages an app can replace (`pages.signUp`, `pages.account`), declared from
 * its folder: `declare module "../types.js" { interface CapabilityPages { account?: string } }`,
 * and named in its options' `pages`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CapabilityPages {}

export interface PagesOptions extends CapabilityPages {
  signIn?: string
  signOut?: string
  error?: string
  verifyRequest?: string
  newUser?: string
}

export interface CookieOptions {
  maxAge?: number
  expires?: Date
  domain?: string
  path?: string
  httpOnly?: boolean
  secure?: boolean
  sameSite?: boolean | "lax" | "strict" | "none"
  partitioned?: boolean
  priority?: "low" | "medium" | "high"
}

export interface CookieOption {
  name: string
  options: CookieOptions
}

export type CookieName =
  | "sessionToken"
  | "callbackUrl"
  | "csrfToken"
  | "pkceCodeVerifier"
  | "state"
  | "nonce"
  | "webauthnChallenge"

export type CookiesOptions = Record<CookieName, CookieOption>

/** A cookie Gatehouse wants set (or cleared, with `maxAge: 0`). */
export interface Cookie extends CookieOption {
  value: string
}

export interface JWTEncodeParams<Payload = JWT> {
  token?: Payload
  /** A list is allowed; the first entry seals. */
  secret: string | string[]
  /** Binds the token to its purpose; Gatehouse uses the cookie name. */
  salt: string
  /** Seconds from now until `exp`. Default 30 days. */
  maxAge?: number
}

export interface JWTDecodeParams {
  token?: string
  /** Tried in order. */
  secret: string | string[]
  salt: string
}

export interface SessionOptions {
  /** `cookie` (alias `jwt`): an encrypted cookie. `database`: a record held by the adapter. */
  strategy?: "cookie" | "jwt" | "database"
  /** Seconds of inactivity before the session ends, or an absolute end date. Default 30 days. */
  maxAge?: number | Date
  /** Extend the expiry at most once per this many seconds. `0`: on every access. Default 1 day. */
  updateAge?: number
  /** Session token for the database strategy (never the record id). Default: 32 random bytes, hex. */
  generateSessionToken?: () => string
  /** Replaces the default JWE sealing of the session cookie. */
  seal?: (params: JWTEncodeParams) => Awaitable<string>
  /** Replaces the default unsealing; return null for an invalid token. */
  unseal?: (params: JWTDecodeParams) => Awaitable<JWT | null>
  /**
   * How recent a sign-in must be (seconds) for the changes that add or remove a way in or change
   * who owns the account (issue #24: a passkey, a provider link, the password, two-factor, the
   * email, deleting the account). Default 600 (10 minutes).
   */
  recentSignIn?: number
  /**
   * How many sessions each process remembers, per cache (issue #36): opened session cookies, the
   * revocation check's answers (per session id and per user), and database sessions. Each entry
   * is about 1.5 kB; the oldest go first. Default 10 000. A positive integer.
   */
  cacheSize?: number
}

/** @deprecated use `session.seal`, `session.unseal` and `session.maxAge`. */
export interface JWTOptions {
  encode?: (params: JWTEncodeParams) => Awaitable<string>
  decode?: (params: JWTDecodeParams) => Awaitable<JWT | null>
  maxAge?: number
}

/**
 * The options capabilities add to `AuthConfig` (lib/core/capability.ts), by declaration merging
 * from each capability's folder: `declare module "../types.js" { interface CapabilityConfigOptions { twoFactor?: TwoFactorOptions } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CapabilityConfigOptions {}

/** The configuration: the core's options here, each capability's from its folder (`CapabilityConfigOptions`). */
export interface AuthConfig extends CapabilityConfigOptions {
  /** The only required option. Provider objects, or provider factories called without options. */
  providers: Array<Provider | ((options?: never) => Provider)>
  adapter?: Adapter
  /** Where the actions live. Default `/auth` (or the path of AUTH_URL, or the router's mount path). */
  basePath?: string
  /** Newest first; the first seals, all are tried when unsealing. Default from AUTH_SECRET(_1.._3). */
  secret?: string | string[]
  session?: SessionOptions
  /** @deprecated use `session.seal`, `session.unseal`, `session.maxAge`. */
  jwt?: JWTOptions
  callbacks?: CallbacksOptions
  events?: EventCallbacks
  pages?: PagesOptions
  theme?: Theme
  /**
   * The language of the built-in pages and the sign-in email: `"auto"` (default) picks it per
   * request from `Accept-Language`; a tag (`"en"`, `"de"`, `"fr"`, `"es"`, `"ja"`, or one added
   * with `messages`) fixes it.
   */
  locale?: string
  /** App-supplied texts, per locale: partial overrides of the built-in texts, or new locales. */
  messages?: LocaleMessages
  /** Advanced: fixed cookie names and options, replacing the built-in policy for those cookies. */
  cookies?: Partial<Record<CookieName, Partial<CookieOption> & { options?: CookieOptions }>>
  /** Default: true when the site is served over HTTPS. */
  useSecureCookies?: boolean
  /** Trust the Host and X-Forwarded-* headers. Default: see the README's "Host trust". */
  trustHost?: boolean
  skipCSRFCheck?: typeof skipCSRFCheck
  /** Sets `redirect_uri` of OAuth authorization requests. Default AUTH_REDIRECT_PROXY_URL. */
  redirectProxyUrl?: string
  /** Default `error`. Ignored for any level the `logger` overrides. */
  logLevel?: LogLevel
  /**
   * Where log lines go: a pino or winston instance (structured fields, its own level), or an
   * object with `error`, `warn` and/or `debug` functions (the rest go to the console).
   */
  logger?: Partial<LoggerInstance> | StructuredLoggerInstance
  /**
   * Request ids (README, "Request ids"): `{ trustHeader: true }` takes a well-formed incoming
   * `X-Request-Id` (set by your proxy); default: the app's `req.id`, else a new random id.
   */
  requestId?: RequestIdOptions
  /** @deprecated use `logLevel: "verbose"`. */
  debug?: boolean
  /**
   * Limits on sign-in attempts per client address and per identifier (429 with Retry-After).
   * Default: on in production with the README's limits; `false` turns them off.
   */
  rateLimit?: boolean | RateLimitOptions
  /**
   * Where state shared by the app's processes lives: rate-limit counters and used passkey
   * challenges. Default: this process's memory. `RedisStore` from `gatehouse/stores/redis` shares it.
   */
  store?: StateStore
  /**
   * A sign-in that proves an address (magic link, a provider that vouches for the email) meeting a
   * stored user whose address nobody proved, who has other ways to sign in: `{ unverifiedEmail:
   * "reclaim" }` (default: those other ways are removed and the user's sessions ended) or
   * `"refuse"` (`UnverifiedAccountExists`). README, "Account linking and email trust".
   */
  accountLinking?: AccountLinkingOptions
  /**
   * The developer page `GET <basePath>/diagnostics` (what Gatehouse inferred about URLs, proxy,
   * cookies and providers). Default: on unless NODE_ENV is `production`; `false` turns it off,
   * `true` also serves it in production (it answers 404 when off).
   */
  diagnostics?: boolean
  /**
   * OpenTelemetry traces and metrics (`@opentelemetry/api`). Default: the globally registered
   * providers (no-ops until an SDK registers some); `{ tracerProvider, meterProvider }` uses
   * those; `false` turns the instrumentation off. README, "Observability".
   */
  telemetry?: false | TelemetryOptions
  /** May change or vanish without notice. */
  experimental?: Record<string, unknown>
  raw?: typeof raw
}

/** The configuration, or a function of the request returning it (lazy initialisation). */
export type AuthConfigInput = AuthConfig | ((request?: AuthRequestLike) => Awaitable<AuthConfig>)

export interface PublicProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/** What an action produces; integrations turn it into their own response. */
export interface ResponseInternal<Body = unknown> {
  body?: Body
  cookies?: Cookie[]
  headers?: Record<string, string>
  redirect?: string
  status?: number
}

/**
 * The actions capabilities add (lib/core/capability.ts), by declaration merging from each
 * capability's folder: `declare module "../types.js" { interface CapabilityActions { sessions: true } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CapabilityActions {}

export type AuthAction =
  | keyof CapabilityActions
  | "callback"
  | "csrf"
  | "diagnostics"
  | "error"
  | "providers"
  | "session"
  | "signin"
  | "signout"
  | "verify-request"
  | "webauthn-options"
  | "notice"
