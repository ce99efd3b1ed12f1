/**
 * The resolved configuration's type: what `resolveConfig` (resolve.ts) builds once per
 * configuration object and every request reads. Types only, apart from the resolver, so a part
 * the resolver calls (the telemetry wrapper, an option resolver) can name the record it receives
 * without importing the resolver back (no import cycles, issue #25). resolve.ts re-exports them.
 */
import type { TransactionalAdapter } from "../adapter.js"
import type { CallbacksOptions, CookiesOptions, EventCallbacks, Session, JWTDecodeParams, JWTEncodeParams, JWT, PagesOptions, Theme, Awaitable } from "../../types.js"
import type { WarningCode } from "../../warnings.js"
import type { LoggerInstance } from "../logger.js"
import type { CookieSets } from "./cookies.js"
import type { ProviderTable } from "./providers.js"
import type { ResolvedRateLimit } from "../../rate-limit/options.js"
import type { ResolvedAccountLinking } from "../../linking/options.js"
import type { StateStore } from "../../shared-store/types.js"
import type { ResolvedRequestId } from "./request-id.js"
import type { ResolvedI18n } from "../../i18n/index.js"
import type { Telemetry } from "../../telemetry/instruments.js"

export interface ResolvedSession {
  strategy: "cookie" | "database"
  /** Relative lifetime in seconds (when `absoluteExpires` is unset). */
  maxAge: number
  /** Set when `session.maxAge` is a date: every session ends then. */
  absoluteExpires?: Date
  updateAge: number
  /** Seconds within which a sign-in counts as recent (`session.recentSignIn`). */
  recentSignIn: number
  /** Entries per session cache and process (`session.cacheSize`): opened cookies, revocation answers, database sessions. */
  cacheSize: number
  generateSessionToken: () => string
  /** User-supplied sealing (`session.seal`, or the deprecated `jwt.encode`). */
  seal?: (params: JWTEncodeParams) => Awaitable<string>
  unseal?: (params: JWTDecodeParams) => Awaitable<JWT | null>
  /** `exp` of sealed tokens, in seconds (the deprecated `jwt.maxAge`, else `maxAge`). */
  tokenMaxAge: number
}

export type ResolvedCallbacks = Required<CallbacksOptions>

/**
 * Each capability's resolved options (`config.twoFactor`, `config.notices`, ...), declared from its
 * folder beside the capability that resolves them (lib/core/capability.ts, `options`):
 * `declare module "../core/config/resolved.js" { interface CapabilityConfig { readonly twoFactor?: ResolvedTwoFactor } }`.
 */
export interface CapabilityConfig {
  /**
   * A capability's facts about the signed-in user, added to every session read after the app's
   * callbacks (lib/session/read.ts): organizations' `auth.organization`. Without a promise when it
   * can answer at once.
   */
  readonly sessionFacts?: SessionFacts
  /**
   * A notice every built-in page shows at its top (lib/pages/page.ts): the admin tools' banner
   * while an admin views the site as a user (issue #30). Synchronous, as page rendering is, and
   * cheap when there is nothing to show; undefined for none.
   */
  readonly pageBanner?: PageBannerSource
}

/** What a page's banner is made from: the request's context (or only its headers), its texts and language. */
export interface PageBannerContext {
  readonly config: ResolvedConfig
  readonly request?: { header(name: string): string | undefined }
}

export type PageBannerSource = (ctx: PageBannerContext, messages: Readonly<Record<string, string>>, tag: string) => object | undefined

/** A read's result as `sessionFacts` sees it (lib/session/cookie-strategy.ts, `SessionResult`). */
export interface SessionFactsInput {
  session: Session | null
  identity?: { userId?: string }
}

export type SessionFacts = <R extends SessionFactsInput>(config: ResolvedConfig, jar: Readonly<Record<string, string | undefined>>, set: CookiesOptions, result: R) => R | Promise<R>

export interface ResolvedConfig extends CapabilityConfig {
  readonly source: object
  readonly providers: ProviderTable
  /** The user's adapter, wrapped (AdapterError on failure); checked for the methods in use. */
  readonly adapter?: TransactionalAdapter
  readonly basePath: string
  /** Set by the user (or AUTH_URL's path), as opposed to the default. */
  readonly basePathExplicit: boolean
  /** AUTH_URL: when set, the origin of every URL Gatehouse writes. */
  readonly authUrl?: URL
  readonly trustHost: boolean
  readonly secrets: readonly string[]
  /**
   * The key of new CSRF cookies and verification-token hashes: the first secret. (Auth.js hashes
   * with the whole list joined by commas; with one secret the two are the same.)
   */
  readonly csrfSecret: string
  /**
   * Keys accepted when checking those hashes: each secret, then the list joined with commas (values
   * Auth.js made with a list). Processes mid-way through a secret rotation accept each other's.
   */
  readonly csrfSecrets: readonly string[]
  readonly session: ResolvedSession
  readonly callbacks: ResolvedCallbacks
  /** Which callbacks the user supplied (the defaults can be skipped on hot paths). */
  readonly custom: { readonly jwt: boolean; readonly session: boolean; readonly signIn: boolean }
  readonly events: EventCallbacks
  readonly pages: PagesOptions
  readonly theme: Theme
  /** The page and email texts: every locale's frozen catalog, and the fixed locale if any. */
  readonly i18n: ResolvedI18n
  readonly cookies: CookieSets
  readonly useSecureCookies?: boolean
  readonly skipCSRFCheck: boolean
  readonly redirectProxyUrl?: string
  readonly logger: LoggerInstance
  readonly warnOnce: (code: WarningCode, detail?: string) => void
  readonly experimental: Readonly<Record<string, unknown>>
  readonly raw: boolean
  /** A WebAuthn provider is configured: the session callback can list the user's passkeys. */
  readonly passkeys: boolean
  /** The rate limits in force; undefined when rate limiting is off. */
  readonly rateLimit?: ResolvedRateLimit
  /** What a proven address does to a stored user whose address nobody proved (issue #12). */
  readonly accountLinking: ResolvedAccountLinking
  /** Shared state (rate-limit counters, used passkey challenges), guarded by a timeout and fallback. */
  readonly store: StateStore
  /** The tracer and metric instruments (issue #20, lib/telemetry); undefined with `telemetry: false`. */
  readonly telemetry?: Telemetry
  readonly production: boolean
  /** The `diagnostics` action is served (the option, else not in production). */
  readonly diagnostics: boolean
  /** No secret was configured: a random per-process one is in use (development only). */
  readonly generatedSecret: boolean
  /** Where `trustHost` came from, for the diagnostics page. */
  readonly trustHostSource: "option" | "AUTH_TRUST_HOST" | "AUTH_URL" | "platform" | "development" | "default"
  /** Where request ids come from (issue #20). */
  readonly requestId: ResolvedRequestId
  /**
   * Someone reads per-request facts (an audit callback, a logger, verbose logs): requests are
   * tracked through async calls so records and log lines carry the request id (lib/core/request-scope.ts).
   */
  readonly trackRequests: boolean
}
