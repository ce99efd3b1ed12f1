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
import { redirectProxyUrl, redirectUri } from "../providers/oauth/authorization.js"
import type { OAuthProviderConfig } from "../providers/types.js"
import { diagnosticsPage } from "../pages/diagnostics.js"
import { findProblems, type DiagnosticsProblem } from "./diagnostics-problems.js"
import { MAX_SHOWN, requestFacts } from "./diagnostics-facts.js"
import { accountDiagnostics, type DiagnosticsAccount } from "./diagnostics-account.js"
import type { DiagnosticsCookie, DiagnosticsProvider, DiagnosticsReport } from "./diagnostics-report.js"

export type { DiagnosticsAccount, DiagnosticsCookie, DiagnosticsProblem, DiagnosticsProvider, DiagnosticsReport }

/** A header value as shown: first 200 characters, or null when absent. */
function shown(value: string | undefined): string | null {
  return value === undefined ? null : value.slice(0, MAX_SHOWN)
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

export function diagnosticsReport(ctx: RequestContext): DiagnosticsReport {
  const { config, request } = ctx
  const facts = requestFacts(ctx)
  const { socketTls, express, seenOrigin, host, forwardedProto, forwardedHost, authUrl, forwardedUsed, mountPath, basePathSource, trustSource } = facts
  const scheme = request.secure ? "https" : "http"
  const cookies = cookieSet(config, request.secure)
  const effectiveSecure = config.useSecureCookies ?? request.secure
  const problems = findProblems(facts)

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
