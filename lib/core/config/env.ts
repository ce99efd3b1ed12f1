/**
 * Environment variables. `readEnv` is pure and used internally; `setEnvDefaults` is the public,
 * documented-as-mutating helper that writes the same defaults into a configuration object.
 */
import { UntrustedHost } from "../../errors.js"
import type { AuthConfig } from "../../types.js"
import { createLogger } from "../logger.js"

export type EnvObject = Record<string, string | undefined>

export interface EnvSettings {
  /** Newest first: AUTH_SECRET, then AUTH_SECRET_1..3. */
  secrets: string[]
  /** AUTH_URL (or the legacy NEXTAUTH_URL), parsed. */
  url?: URL
  /** AUTH_TRUST_HOST as a boolean, if set. */
  trustHost?: boolean
  redirectProxyUrl?: string
  production: boolean
  /** A hosting platform that sets a trustworthy Host (the spec's "trusted hosting platform"). */
  trustedPlatform: boolean
}

const FALSE_VALUES = new Set(["", "0", "false", "no", "off"])

export function readEnv(env: EnvObject): EnvSettings {
  const secrets: string[] = []
  const first = env.AUTH_SECRET || env.NEXTAUTH_SECRET
  if (first) secrets.push(first)
  for (const n of [1, 2, 3]) {
    const value = env[`AUTH_SECRET_${n}`]
    if (value) secrets.push(value)
  }
  const rawUrl = env.AUTH_URL || env.NEXTAUTH_URL
  const trust = env.AUTH_TRUST_HOST
  return {
    secrets,
    url: rawUrl ? parseEnvUrl(rawUrl) : undefined,
    trustHost: trust === undefined ? undefined : !FALSE_VALUES.has(trust.trim().toLowerCase()),
    redirectProxyUrl: env.AUTH_REDIRECT_PROXY_URL || undefined,
    production: env.NODE_ENV === "production",
    trustedPlatform: Boolean(env.VERCEL || env.CF_PAGES),
  }
}

function parseEnvUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UntrustedHost(`AUTH_URL must be an absolute http(s) URL (got ${JSON.stringify(raw)})`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UntrustedHost(`AUTH_URL must use http or https (got ${JSON.stringify(raw)})`)
  }
  return url
}

/** The trustHost rule of the spec (Authentication §4) when the config does not say. */
export function defaultTrustHost(settings: EnvSettings): boolean {
  return settings.trustHost ?? (Boolean(settings.url) || settings.trustedPlatform || !settings.production)
}

/** AUTH_URL's path, if it has one other than `/`, without a trailing slash. */
export function envBasePath(settings: EnvSettings): string | undefined {
  const path = settings.url?.pathname.replace(/\/+$/, "")
  return path ? path : undefined
}

/** `AUTH_{ID}_...` with the provider id in upper snake case. */
export function providerEnvName(providerId: string, suffix: string): string {
  return `AUTH_${providerId.replace(/-/g, "_").toUpperCase()}_${suffix}`
}

/**
 * Fills `config` from the environment: secret, redirectProxyUrl, trustHost, basePath (from
 * AUTH_URL's path), and the client id and secret of OAuth providers listed without them.
 * Mutates `config`, as its name says; Gatehouse itself never calls it on your object.
 */
export function setEnvDefaults(envObject: EnvObject, config: AuthConfig, suppressBasePathWarning = false): void {
  const settings = readEnv(envObject)
  const urlPath = envBasePath(settings)
  if (urlPath) {
    const configured = config.basePath?.length && config.basePath.length > 1 ? config.basePath.replace(/\/+$/, "") : config.basePath
    if (configured && configured !== urlPath && !suppressBasePathWarning) {
      createLogger(config.logLevel ?? "error", config.logger).warn("env-url-basepath-mismatch")
    }
    config.basePath ??= urlPath
  }
  config.basePath ??= "/auth"
  if (!config.secret && settings.secrets.length) {
    config.secret = settings.secrets.length === 1 ? settings.secrets[0] : settings.secrets
  }
  config.redirectProxyUrl ??= settings.redirectProxyUrl
  config.trustHost ??= defaultTrustHost(settings)
  config.providers = config.providers.map((entry) => {
    const provider = typeof entry === "function" ? entry() : entry
    if (provider.type !== "oauth" && provider.type !== "oidc") return provider
    const filled: Record<string, unknown> = { ...provider }
    filled.clientId ??= envObject[providerEnvName(provider.id, "ID")]
    filled.clientSecret ??= envObject[providerEnvName(provider.id, "SECRET")]
    if (provider.type === "oidc") filled.issuer ??= envObject[providerEnvName(provider.id, "ISSUER")]
    return filled as unknown as typeof provider
  })
}
