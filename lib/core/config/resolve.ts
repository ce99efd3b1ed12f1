/**
 * `resolveConfig`: the user's configuration, validated, with every default and environment value
 * applied, providers normalised and cookie sets built, then frozen. Once per configuration object
 * (a WeakMap keyed by it); the user's object is never written to. The record's type is in
 * resolved.ts (re-exported here). Each capability checks and resolves its own options
 * (lib/core/capability.ts, `options`), in the order of lib/capabilities.ts; their texts are handed
 * to lib/i18n with the `locale` and `messages` options (lib/core/built-in-texts.ts).
 */
import { CAPABILITIES } from "../../capabilities.js"
import type { OptionsContext } from "../capability.js"
import { MissingAdapter, MissingSecretError, UntrustedHost } from "../../errors.js"
import { adapterMethods, assertAdapterMethods, DEVELOPMENT_ADAPTER, requiredMethods, wrapAdapter } from "../adapter.js"
import { createLogger, createWarnOnce } from "../logger.js"
import { isStructuredLogger } from "../structured-logger.js"
import { defaultRedirect } from "../redirect.js"
import { raw as rawMarker, skipCSRFCheck as skipMarker } from "../symbols.js"
import { resolveCookies } from "./cookies.js"
import { DEFAULT_BASE_PATH, DEFAULT_LOG_LEVEL, DEFAULT_RECENT_SIGN_IN, DEFAULT_SESSION_CACHE_SIZE, DEFAULT_SESSION_MAX_AGE, DEFAULT_UPDATE_AGE } from "./defaults.js"
import { defaultTrustHost, envBasePath, readEnv, type EnvObject } from "./env.js"
import { resolveProviders } from "./providers.js"
import { assertSecretStrength, HOW_TO_MAKE_A_SECRET } from "./secret-strength.js"
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
  CORE_PAGES,
  assertSecrets,
  assertSession,
  assertTheme,
  assertUrl,
} from "./validate.js"
import { show } from "./show.js"
import { resolveRequestId } from "./request-id.js"
import { resolveRateLimit } from "../../rate-limit/options.js"
import { resolveAccountLinking } from "../../linking/options.js"
import { assertStore, guardedStore } from "../../shared-store/guarded.js"
import { defaultStore } from "../../shared-store/adapter-sessions.js"
import type { StateStore } from "../../shared-store/types.js"
import { InvalidOption } from "../../errors.js"
import { bindToTheme, resolveI18n } from "../../i18n/index.js"
import { CAPABILITY_TEXTS } from "../built-in-texts.js"
import { withTelemetry } from "../../telemetry/config.js"
import type { CapabilityConfig, ResolvedCallbacks, ResolvedConfig, ResolvedSession, SessionFacts } from "./resolved.js"
import type { AuthConfig } from "../../types.js"
import type { Provider } from "../../providers/types.js"

export type { ResolvedCallbacks, ResolvedConfig, ResolvedSession }

const CALLBACK_NAMES = ["signIn", "redirect", "session", "jwt", "authorized"] as const
/** The core's events, then each capability's own (`events`). */
const EVENT_NAMES: readonly string[] = ["signIn", "signOut", "createUser", "updateUser", "linkAccount", "session", "revokeSession", "audit", ...CAPABILITIES.flatMap((capability) => capability.events ?? [])]

/** A random secret for a development process that has none: sessions end when it restarts. */
let developmentSecret: string | undefined

/** The adapter methods wrapped at start-up: the core's and every capability's own. */
const ADAPTER_METHODS = adapterMethods(CAPABILITIES)

/** The pages an app may replace: the core's and every capability's. */
const PAGES: readonly string[] = [...CORE_PAGES, ...CAPABILITIES.flatMap((capability) => capability.options?.pages ?? [])]

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
  const providers = resolveProviders(config.providers, env, checkProvider)
  const sessionOptions = assertSession(config.session, adapter, { maxAge: DEFAULT_SESSION_MAX_AGE, updateAge: DEFAULT_UPDATE_AGE, recentSignIn: DEFAULT_RECENT_SIGN_IN, cacheSize: DEFAULT_SESSION_CACHE_SIZE })
  assertJwtOptions(config.jwt)
  if (config.jwt?.encode) warnOnce("jwt-encode-deprecated")
  if (config.jwt?.decode) warnOnce("jwt-decode-deprecated")
  if (config.jwt?.maxAge !== undefined) warnOnce("jwt-maxage-deprecated")
  assertFunctions("callbacks", config.callbacks, CALLBACK_NAMES)
  assertFunctions("events", config.events, EVENT_NAMES)

  const optionSecrets = assertSecrets(config.secret)
  const secrets = [...(optionSecrets ?? settings.secrets)]
  assertSecretStrength(secrets, optionSecrets !== undefined, settings.production)
  const generatedSecret = !secrets.length
  if (!secrets.length) {
    if (settings.production) {
      throw new MissingSecretError(`No secret is set. Set AUTH_SECRET (make one with ${HOW_TO_MAKE_A_SECRET}) or the \`secret\` option.`)
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

  const maxAge = sessionOptions.maxAge
  if (maxAge instanceof Date && maxAge.getTime() <= Date.now()) warnOnce("session-maxage-past")
  const relativeMaxAge = typeof maxAge === "number" ? maxAge : DEFAULT_SESSION_MAX_AGE
  const session: ResolvedSession = Object.freeze({
    strategy: sessionOptions.strategy,
    maxAge: relativeMaxAge,
    absoluteExpires: maxAge instanceof Date ? new Date(maxAge.getTime()) : undefined,
    updateAge: sessionOptions.updateAge,
    recentSignIn: sessionOptions.recentSignIn,
    cacheSize: sessionOptions.cacheSize,
    // 256 random bits (a UUID has only 122).
    generateSessionToken: config.session?.generateSessionToken ?? (() => randomHex(32)),
    seal: config.session?.seal ?? config.jwt?.encode,
    unseal: config.session?.unseal ?? config.jwt?.decode,
    tokenMaxAge: config.jwt?.maxAge ?? relativeMaxAge,
  })

  // The built-in catalogs hold every capability's texts: built from this one list, once per process.
  const i18n = resolveI18n(config.locale, config.messages, CAPABILITY_TEXTS)
  const wrappedAdapter = adapter ? wrapAdapter(adapter, logger, ADAPTER_METHODS) : undefined

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
    pages: Object.freeze({ ...assertPages(config.pages, PAGES) }),
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
    ...capabilityOptions(config, { adapter, providers: providers.list, production: settings.production, warnOnce }),
    // A store given is guarded (timeouts, memory while it is down); the default is this process's
    // memory, or for cookie sessions the adapter (lib/shared-store/adapter-sessions.ts).
    store: config.store === undefined ? defaultStore(wrappedAdapter, sessionOptions.strategy, logger, warnOnce, settings.production) : guardedStore(assertStore(config.store) as StateStore, logger),
    requestId: resolveRequestId(config.requestId),
    production: settings.production,
    diagnostics: config.diagnostics ?? !settings.production,
    generatedSecret,
    trustHostSource,
    // Only what can show the id needs it: audit records, a pino/winston logger, verbose console lines
    // (a logger of plain functions gets the same arguments as before, without the id).
    trackRequests: Boolean(config.events?.audit || isStructuredLogger(config.logger) || logLevel === "verbose"),
  }
}

/** Each capability's checks of one provider (its `code`, its `federatedSignOut`, ...). */
function checkProvider(provider: Provider, path: string): void {
  for (const capability of CAPABILITIES) capability.options?.checkProvider?.(provider, path)
}

/**
 * Each capability's fields of the resolved configuration (`twoFactor`, `notices`, ...). Several
 * capabilities may add session facts (`auth.organization`, `auth.via`): they run in the order of
 * lib/capabilities.ts, each on the result of the one before.
 */
function capabilityOptions(config: AuthConfig, context: OptionsContext): CapabilityConfig {
  const fields: Partial<CapabilityConfig> = {}
  const facts: SessionFacts[] = []
  for (const capability of CAPABILITIES) {
    const resolved = capability.options?.resolve?.(config, context)
    if (!resolved) continue
    const { sessionFacts, ...rest } = resolved
    Object.assign(fields, rest)
    if (sessionFacts) facts.push(sessionFacts)
  }
  if (facts.length) Object.assign(fields, { sessionFacts: facts.length === 1 ? facts[0] : chainFacts(facts) })
  return fields as CapabilityConfig
}

/** The facts of each capability in turn; without a promise as long as each answers at once. */
function chainFacts(facts: readonly SessionFacts[]): SessionFacts {
  return (config, jar, set, result) => {
    let current: typeof result | Promise<typeof result> = result
    for (const add of facts) current = current instanceof Promise ? current.then((value) => add(config, jar, set, value)) : add(config, jar, set, current)
    return current
  }
}
