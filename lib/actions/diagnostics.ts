/**
 * `GET diagnostics`: a developer page saying what Gatehouse inferred for this request (base URL
 * and how, base path and mount path, scheme as seen through proxies, host trust, cookie names and
 * options, providers and the callback URLs to register) and the mismatches it detects, each with
 * its fix. HTML, or JSON for `Accept: application/json`. Off in production unless
 * `diagnostics: true` (dispatch answers 404 then). Never shows a secret, a cookie value or a
 * token: only names, options and URLs.
 */
import type { CookieOptions, ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { cookieSet } from "../core/context.js"
import { json } from "../core/response.js"
import { siteOf, type SiteHints } from "../core/site.js"
import { redirectProxyUrl, redirectUri } from "../providers/oauth/authorization.js"
import type { OAuthProviderConfig } from "../providers/types.js"
import { diagnosticsPage } from "../pages/diagnostics.js"
import { findProblems, type DiagnosticsProblem } from "./diagnostics-problems.js"
import { accountDiagnostics, type DiagnosticsAccount } from "./diagnostics-account.js"
import type { DiagnosticsCookie, DiagnosticsProvider, DiagnosticsReport } from "./diagnostics-report.js"

export type { DiagnosticsAccount, DiagnosticsCookie, DiagnosticsProblem, DiagnosticsProvider, DiagnosticsReport }

/** The parts of an Express (or Connect, or web) request this page reads; all optional. */
interface SourceLike {
  socket?: { encrypted?: boolean; remoteAddress?: string }
  baseUrl?: unknown
  protocol?: unknown
  app?: { get?: (name: string) => unknown }
  url?: unknown
}

const MAX_SHOWN = 200

/** A header value as shown: first 200 characters, or null when absent. */
function shown(value: string | undefined): string | null {
  return value === undefined ? null : value.slice(0, MAX_SHOWN)
}

const firstItem = (value: string | undefined) => value?.split(",")[0]?.trim() || undefined

function describeTrustProxy(setting: unknown): string {
  if (setting === undefined || setting === false) return "false (not set)"
  if (setting === true) return "true (every proxy)"
  if (typeof setting === "number") return `${setting} (hop${setting === 1 ? "" : "s"})`
  if (typeof setting === "string") return JSON.stringify(setting.slice(0, MAX_SHOWN))
  if (Array.isArray(setting)) return JSON.stringify(setting.map(String)).slice(0, MAX_SHOWN)
  return typeof setting === "function" ? "a function" : "set"
}

/** Express's view of the proxy: its `trust proxy` setting, whether it trusts this peer, req.protocol. */
function expressView(source: SourceLike): DiagnosticsReport["request"]["express"] {
  const get = source.app?.get
  if (typeof get !== "function") return null
  const setting = get.call(source.app, "trust proxy")
  const trust = get.call(source.app, "trust proxy fn")
  let trustsPeer: boolean | null = null
  if (typeof trust === "function") {
    try {
      trustsPeer = Boolean((trust as (address: string | undefined, hop: number) => unknown)(source.socket?.remoteAddress, 0))
    } catch {
      trustsPeer = null
    }
  }
  let protocol: string | null
  try {
    protocol = typeof source.protocol === "string" ? source.protocol : null
  } catch {
    protocol = null
  }
  return { trustProxy: describeTrustProxy(setting), trustsPeer, protocol }
}

function socketTlsOf(source: SourceLike): boolean {
  if (typeof Request !== "undefined" && source instanceof Request) return new URL(source.url).protocol === "https:"
  return Boolean(source.socket?.encrypted)
}

function cookieOptions(options: CookieOptions): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const key of ["httpOnly", "secure", "sameSite", "path", "domain", "maxAge", "partitioned"] as const) {
    const value = (options as Record<string, unknown>)[key]
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out[key] = value
  }
  return out
}

/** A URL without credentials, query or fragment. */
function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname}`.slice(0, MAX_SHOWN)
}

const TRUST_HOST_SOURCES: Record<string, string> = {
  option: "the trustHost option",
  AUTH_TRUST_HOST: "AUTH_TRUST_HOST",
  AUTH_URL: "AUTH_URL being set",
  platform: "a hosting platform that sets the host (VERCEL, CF_PAGES)",
  development: "NODE_ENV not being production (development default)",
  default: "the production default",
}


export function diagnosticsReport(ctx: RequestContext): DiagnosticsReport {
  const { config, request } = ctx
  const source = (request.source ?? {}) as SourceLike
  const socketTls = socketTlsOf(source)
  const express = expressView(source)
  // The actions read X-Forwarded-* only from a hop Express trusts; the page shows the same.
  const hints: SiteHints = { protocol: socketTls ? "https" : "http", header: request.header, trustForwarded: () => request.trustForwarded?.() === true }
  let seenOrigin: string | null
  try {
    seenOrigin = siteOf(undefined, hints).origin
  } catch {
    seenOrigin = null
  }
  const host = request.header("host")
  const forwardedProto = request.header("x-forwarded-proto")
  const forwardedHost = request.header("x-forwarded-host")
  const fwdProto = firstItem(forwardedProto)?.toLowerCase()
  const fwdHost = firstItem(forwardedHost)
  const authUrl = config.authUrl
  const forwardedSent = !authUrl && Boolean(fwdProto || fwdHost)
  const forwardedUsed = forwardedSent && request.trustForwarded?.() === true
  const scheme = request.secure ? "https" : "http"
  const mountPath = typeof source.baseUrl === "string" && source.baseUrl ? source.baseUrl : null
  const authUrlPath = authUrl?.pathname.replace(/\/+$/, "") || undefined
  const basePathSource: DiagnosticsReport["basePath"]["source"] = !config.basePathExplicit
    ? mountPath && mountPath !== config.basePath && request.basePath === mountPath
      ? "mount path"
      : "default"
    : authUrlPath === config.basePath
      ? "AUTH_URL path"
      : "basePath or AUTH_URL path"
  const suggestedUrl = `${seenOrigin ?? request.origin}${request.basePath === "/" ? "" : request.basePath}`
  const trustSource = TRUST_HOST_SOURCES[config.trustHostSource] ?? config.trustHostSource
  const cookies = cookieSet(config, request.secure)
  const effectiveSecure = config.useSecureCookies ?? request.secure

  const problems = findProblems({
    config,
    request,
    host,
    fwdProto,
    fwdHost,
    authUrl,
    authUrlPath,
    seenOrigin,
    express,
    forwardedUsed,
    forwardedSent,
    mountPath,
    basePathSource,
    suggestedUrl,
    trustSource,
  })

  const baseUrlHow = authUrl
    ? `AUTH_URL (${shownUrl(authUrl)}): Host and X-Forwarded-* headers are ignored for URLs and cookie names.`
    : forwardedUsed
      ? `This request's X-Forwarded-Proto/X-Forwarded-Host (first value), trusted because trustHost comes from ${trustSource}.`
      : `This request's connection (${socketTls ? "TLS" : "plain http"}) and Host header, trusted because trustHost comes from ${trustSource}.`

  return {
    production: config.production,
    baseUrl: { value: ctx.baseUrl, source: authUrl ? "AUTH_URL" : forwardedUsed ? "X-Forwarded-*" : "request", how: baseUrlHow },
    authUrl: authUrl ? shownUrl(authUrl) : null,
    basePath: {
      value: request.basePath,
      configured: config.basePath,
      source: basePathSource,
      mountPath,
      agrees: mountPath === null ? null : mountPath === config.basePath,
    },
    request: {
      seenOrigin,
      socketTls,
      host: shown(host),
      xForwardedProto: shown(forwardedProto),
      xForwardedHost: shown(forwardedHost),
      forwardedUsed,
      scheme,
      express,
    },
    trustHost: {
      value: config.trustHost,
      source: config.trustHostSource,
      how: config.trustHost ? `On, from ${trustSource}.` : `Off, from ${trustSource}; URLs come from AUTH_URL only.`,
    },
    useSecureCookies: {
      option: config.useSecureCookies ?? null,
      effective: effectiveSecure,
      how:
        config.useSecureCookies === undefined
          ? `Not set: follows the site's scheme (${scheme}${authUrl ? ", from AUTH_URL" : ""}).`
          : `Forced to ${config.useSecureCookies} by the useSecureCookies option.`,
    },
    cookies: Object.entries(cookies).map(([key, cookie]) => ({ key, name: cookie.name, options: cookieOptions(cookie.options) })),
    session: { strategy: config.session.strategy, maxAge: config.session.maxAge, adapter: Boolean(config.adapter) },
    secret: { generated: config.generatedSecret, count: config.secrets.length },
    providers: config.providers.list.map((provider) => {
      const entry: DiagnosticsProvider = {
        id: provider.id,
        name: provider.name,
        type: provider.type,
        signinUrl: `${ctx.baseUrl}/signin/${provider.id}`,
        callbackUrl: `${ctx.baseUrl}/callback/${provider.id}`,
      }
      if (provider.type === "oauth" || provider.type === "oidc") {
        const oauth = provider as OAuthProviderConfig
        entry.redirectUri = redirectUri(ctx, oauth)
        entry.viaRedirectProxy = Boolean(redirectProxyUrl(ctx, oauth))
      }
      return entry
    }),
    account: accountDiagnostics(config, ctx.baseUrl),
    problems,
  }
}

export function diagnostics(ctx: RequestContext): ResponseInternal {
  const report = diagnosticsReport(ctx)
  return ctx.wantsJson ? json(report) : diagnosticsPage(ctx, report)
}
