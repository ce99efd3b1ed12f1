/**
 * `resolveConfig`: the user's configuration, validated, with every default and environment value
 * applied, providers normalised and cookie sets built, then frozen. Once per configuration object
 * (a WeakMap keyed by it); the user's object is never written to.
 */
import { resolveTwoFactor, type ResolvedTwoFactor } from "../../two-factor/options.js"
import { MissingAdapter, MissingSecretError, UntrustedHost } from "../../errors.js"
import { assertAdapterMethods, DEVELOPMENT_ADAPTER, requiredMethods, wrapAdapter, type TransactionalAdapter } from "../adapter.js"
import type { CallbacksOptions, EventCallbacks, JWTDecodeParams, JWTEncodeParams, JWT, PagesOptions, Theme, Awaitable } from "../../types.js"
import type { WarningCode } from "../../warnings.js"
import { createLogger, createWarnOnce, type LoggerInstance } from "../logger.js"
import { isStructuredLogger } from "../structured-logger.js"
import { defaultRedirect } from "../redirect.js"
import { raw as rawMarker, skipCSRFCheck as skipMarker } from "../symbols.js"
import { resolveCookies, type CookieSets } from "./cookies.js"
import { DEFAULT_BASE_PATH, DEFAULT_LOG_LEVEL, DEFAULT_RECENT_SIGN_IN, DEFAULT_SESSION_MAX_AGE, DEFAULT_UPDATE_AGE } from "./defaults.js"
import { defaultTrustHost, envBasePath, readEnv, type EnvObject } from "./env.js"
import { resolveProviders, type ProviderTable } from "./providers.js"
import { randomHex } from "../../crypto/random.js"
import {
  assertAdapter,
  assertBasePath,
  assertConfigObject,
  assertFunctions,
  assertJwtOptions,
  assertLogLevel,
  assertLogger,
  assertPages,
  assertSecrets,
  assertSession,
  assertTheme,
  assertUrl,
  show,
} from "./validate.js"
import { resolveRateLimit, type ResolvedRateLimit } from "../../rate-limit/options.js"
import { resolveAccountLinking, type ResolvedAccountLinking } from "../../linking/options.js"
import { resolveNotices, type ResolvedNotices } from "../../notices/options.js"
import { assertStore, guardedStore } from "../../state/guarded.js"
import { defaultStore } from "../../state/adapter-sessions.js"
import type { StateStore } from "../../state/types.js"
import { InvalidOption } from "../../errors.js"
import { bindToTheme, resolveI18n, type ResolvedI18n } from "../../i18n/index.js"
import { withTelemetry } from "../../telemetry/config.js"
import type { Telemetry } from "../../telemetry/instruments.js"
import { resolveRequestId, type ResolvedRequestId } from "../../audit/request-id.js"

export interface ResolvedSession {
  strategy: "cookie" | "database"
  /** Relative lifetime in seconds (when `absoluteExpires` is unset). */
  maxAge: number
  /** Set when `session.maxAge` is a date: every session ends then. */
  absoluteExpires?: Date
  updateAge: number
  /** Seconds within which a sign-in counts as recent (`session.recentSignIn`). */
  recentSignIn: number
  generateSessionToken: () => string
  /** User-supplied sealing (`session.seal`, or the deprecated `jwt.encode`). */
  seal?: (params: JWTEncodeParams) => Awaitable<string>
  unseal?: (params: JWTDecodeParams) => Awaitable<JWT | null>
  /** `exp` of sealed tokens, in seconds (the deprecated `jwt.maxAge`, else `maxAge`). */
  tokenMaxAge: number
}

export type ResolvedCallbacks = Required<CallbacksOptions>

export interface ResolvedConfig {
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
  readonly warnOnce: (code: WarningCode) => void
  readonly experimental: Readonly<Record<string, unknown>>
  readonly raw: boolean
  /** A WebAuthn provider is configured: the session callback can list the user's passkeys. */
  readonly passkeys: boolean
  /** The rate limits in force; undefined when rate limiting is off. */
  readonly rateLimit?: ResolvedRateLimit
  /** What a proven address does to a stored user whose address nobody proved (issue #12). */
  readonly accountLinking: ResolvedAccountLinking
  /** Two-factor sign-in (issue #16); undefined when off. */
  readonly twoFactor?: ResolvedTwoFactor
  /** Security notices by mail and the email change's undo window (issue #24, lib/notices). */
  readonly notices: ResolvedNotices
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
   * tracked through async calls so records and log lines carry the request id (lib/audit/scope.ts).
   */
  readonly trackRequests: boolean
}

const CALLBACK_NAMES = ["signIn", "redirect", "session", "jwt", "authorized"] as const
const EVENT_NAMES = ["signIn", "signOut", "createUser", "updateUser", "linkAccount", "session", "revokeSession", "unlinkAccount", "deleteUser", "twoFactorEnabled", "twoFactorDisabled", "twoFactorChallenge", "audit"] as const

/** A random secret for a development process that has none: sessions end when it restarts. */
let developmentSecret: string | undefined

const cache = new WeakMap<object, ResolvedConfig>()

export function resolveConfig(config: object, env: EnvObject = process.env): ResolvedConfig {
  const hit = cache.get(config)
  if (hit) return hit
  const resolved = Object.freeze(withTelemetry(build(config, env), config))
  cache.set(config, resolved)
  return resolved
}

function build(config: object, env: EnvObject): ResolvedConfig {
  assertConfigObject(config)
  const settings = readEnv(env)
  const logLevel = assertLogLevel(config.logLevel) ?? (config.debug ? "verbose" : DEFAULT_LOG_LEVEL)
  assertLogger(config.logger)
  const logger = createLogger(logLevel, config.logger)
  const warnOnce = createWarnOnce(logger)
  if (config.debug !== undefined) {
    warnOnce("debug-deprecated")
    if (config.debug) warnOnce("debug-enabled")
  }

  const adapter = assertAdapter(config.adapter)
  const providers = resolveProviders(config.providers, env)
  const sessionOptions = assertSession(config.session, adapter, { maxAge: DEFAULT_SESSION_MAX_AGE, updateAge: DEFAULT_UPDATE_AGE, recentSignIn: DEFAULT_RECENT_SIGN_IN })
  assertJwtOptions(config.jwt)
  if (config.jwt?.encode) warnOnce("jwt-encode-deprecated")
  if (config.jwt?.decode) warnOnce("jwt-decode-deprecated")
  if (config.jwt?.maxAge !== undefined) warnOnce("jwt-maxage-deprecated")
  assertFunctions("callbacks", config.callbacks, CALLBACK_NAMES)
  assertFunctions("events", config.events, EVENT_NAMES)

  const secrets = [...(assertSecrets(config.secret) ?? settings.secrets)]
  const generatedSecret = !secrets.length
  if (!secrets.length) {
    if (settings.production) {
      throw new MissingSecretError("No secret is set. Set AUTH_SECRET (for example `openssl rand -base64 33`) or the `secret` option.")
    }
    developmentSecret ??= randomHex(32)
    secrets.push(developmentSecret)
    warnOnce("dev-secret-generated")
  }

  const explicitBasePath = assertBasePath(config.basePath)
  const urlBasePath = envBasePath(settings)
  if (explicitBasePath && urlBasePath) warnOnce(explicitBasePath === urlBasePath ? "env-url-basepath-redundant" : "env-url-basepath-mismatch")
  const basePath = explicitBasePath ?? urlBasePath ?? DEFAULT_BASE_PATH

  if (config.trustHost !== undefined && typeof config.trustHost !== "boolean") {
    throw new InvalidOption(`trustHost must be true or false (got ${show(config.trustHost)})`)
  }
  const trustHost = config.trustHost ?? defaultTrustHost(settings)
  const trustHostSource =
    config.trustHost !== undefined ? "option"
    : settings.trustHost !== undefined ? "AUTH_TRUST_HOST"
    : settings.url ? "AUTH_URL"
    : settings.trustedPlatform ? "platform"
    : settings.production ? "default" : "development"
  if (!settings.url && !trustHost) {
    throw new UntrustedHost(
      "Gatehouse cannot tell which host it serves: set AUTH_URL to the site's URL, or trustHost: true (AUTH_TRUST_HOST=true) when a proxy you control sets the Host header.",
    )
  }
  if (settings.production && trustHost && !settings.url) warnOnce("trusthost-without-url")
  if (config.useSecureCookies !== undefined && typeof config.useSecureCookies !== "boolean") {
    throw new InvalidOption(`useSecureCookies must be true or false (got ${show(config.useSecureCookies)})`)
  }
  if (config.diagnostics !== undefined && typeof config.diagnostics !== "boolean") {
    throw new InvalidOption(`diagnostics must be true or false (got ${show(config.diagnostics)})`)
  }
  if (config.skipCSRFCheck !== undefined && config.skipCSRFCheck !== skipMarker) {
    throw new InvalidOption(`skipCSRFCheck must be the \`skipCSRFCheck\` marker exported by gatehouse/core (got ${show(config.skipCSRFCheck)})`)
  }
  if (config.skipCSRFCheck) warnOnce("csrf-disabled")
  if (config.raw !== undefined && config.raw !== rawMarker) {
    throw new InvalidOption(`raw must be the \`raw\` marker exported by gatehouse/core (got ${show(config.raw)})`)
  }
  if (config.experimental !== undefined && (typeof config.experimental !== "object" || config.experimental === null)) {
    throw new InvalidOption(`experimental must be an object (got ${show(config.experimental)})`)
  }

  const needsAdapter = providers.list.find((provider) => provider.type === "email" || provider.type === "webauthn")
  if (needsAdapter && !adapter) {
    throw new MissingAdapter(`The ${needsAdapter.type} provider "${needsAdapter.id}" stores tokens and users: it needs an adapter`)
  }
  if (adapter) {
    assertAdapterMethods(adapter, requiredMethods(sessionOptions.strategy, providers.list))
    if (settings.production && (adapter as Record<symbol, unknown>)[DEVELOPMENT_ADAPTER]) warnOnce("memory-adapter-production")
  }
  // Two-factor sign-in's single-use state (a code's step, a pending sign-in, the code tries) is shared only through `store`.
  if (settings.production && config.store === undefined && config.twoFactor !== undefined && (config.twoFactor as unknown) !== false) warnOnce("two-factor-store-local")

  const maxAge = sessionOptions.maxAge
  if (maxAge instanceof Date && maxAge.getTime() <= Date.now()) warnOnce("session-maxage-past")
  const relativeMaxAge = typeof maxAge === "number" ? maxAge : DEFAULT_SESSION_MAX_AGE
  const session: ResolvedSession = Object.freeze({
    strategy: sessionOptions.strategy,
    maxAge: relativeMaxAge,
    absoluteExpires: maxAge instanceof Date ? new Date(maxAge.getTime()) : undefined,
    updateAge: sessionOptions.updateAge,
    recentSignIn: sessionOptions.recentSignIn,
    // 256 random bits (a UUID has only 122).
    generateSessionToken: config.session?.generateSessionToken ?? (() => randomHex(32)),
    seal: config.session?.seal ?? config.jwt?.encode,
    unseal: config.session?.unseal ?? config.jwt?.decode,
    tokenMaxAge: config.jwt?.maxAge ?? relativeMaxAge,
  })

  const i18n = resolveI18n(config.locale, config.messages)
  const wrappedAdapter = adapter ? wrapAdapter(adapter, logger) : undefined

  const userCallbacks = config.callbacks ?? {}
  const callbacks: ResolvedCallbacks = Object.freeze({
    signIn: userCallbacks.signIn ?? (() => true),
    redirect: userCallbacks.redirect ?? defaultRedirect,
    session: userCallbacks.session ?? (({ session }) => session),
    jwt: userCallbacks.jwt ?? (({ token }) => token),
    authorized: userCallbacks.authorized ?? (({ auth }) => Boolean(auth)),
  })

  return {
    source: config,
    providers,
    adapter: wrappedAdapter,
    basePath,
    basePathExplicit: Boolean(explicitBasePath ?? urlBasePath),
    authUrl: settings.url,
    trustHost,
    secrets: Object.freeze([...secrets]),
    csrfSecret: secrets[0] as string,
    csrfSecrets: Object.freeze([...new Set([...secrets, secrets.join(",")])]),
    session,
    callbacks,
    custom: Object.freeze({ jwt: Boolean(userCallbacks.jwt), session: Boolean(userCallbacks.session), signIn: Boolean(userCallbacks.signIn) }),
    events: Object.freeze({ ...config.events }),
    pages: Object.freeze({ ...assertPages(config.pages) }),
    theme: bindToTheme(Object.freeze({ ...assertTheme(config.theme) }), i18n),
    i18n,
    cookies: resolveCookies(config.cookies),
    useSecureCookies: config.useSecureCookies,
    skipCSRFCheck: config.skipCSRFCheck === skipMarker,
    redirectProxyUrl: assertUrl("redirectProxyUrl", config.redirectProxyUrl) ?? settings.redirectProxyUrl,
    logger,
    warnOnce,
    experimental: Object.freeze({ ...config.experimental }),
    raw: config.raw === rawMarker,
    passkeys: providers.list.some((provider) => provider.type === "webauthn"),
    rateLimit: resolveRateLimit(config.rateLimit, settings.production),
    accountLinking: resolveAccountLinking(config.accountLinking),
    twoFactor: resolveTwoFactor(config.twoFactor, config.adapter),
    notices: resolveNotices(config.notices, providers.list, Boolean(adapter), warnOnce),
    // A store given is guarded (timeouts, memory while it is down); the default is this process's
    // memory, or for cookie sessions the adapter (lib/state/adapter-sessions.ts).
    store: config.store === undefined ? defaultStore(wrappedAdapter, sessionOptions.strategy, logger, warnOnce, settings.production) : guardedStore(assertStore(config.store) as StateStore, logger),
    production: settings.production,
    diagnostics: config.diagnostics ?? !settings.production,
    generatedSecret,
    trustHostSource,
    requestId: resolveRequestId(config.requestId),
    // Only what can show the id needs it: audit records, a pino/winston logger, verbose console lines
    // (a logger of plain functions gets the same arguments as before, without the id).
    trackRequests: Boolean(config.events?.audit || isStructuredLogger(config.logger) || logLevel === "verbose"),
  }
}
