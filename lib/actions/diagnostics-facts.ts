/**
 * What the diagnostics page (actions/diagnostics.ts) and the start-of-traffic check
 * (actions/diagnostics-watch.ts) learn from one request: the origin it was made on, Express's view
 * of the proxy, the forwarded headers, the mount path. Reads headers and the resolved
 * configuration only; nothing here calls the adapter or the network.
 */
import type { RequestContext } from "../core/context.js"
import { siteOf, type SiteHints } from "../core/site.js"
import type { ProblemFacts } from "./diagnostics-problems.js"
import type { DiagnosticsReport } from "./diagnostics-report.js"

/** The parts of an Express (or Connect, or web) request the checks read; all optional. */
export interface SourceLike {
  socket?: { encrypted?: boolean; remoteAddress?: string }
  baseUrl?: unknown
  protocol?: unknown
  app?: { get?: (name: string) => unknown }
  url?: unknown
}

export const MAX_SHOWN = 200

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

const TRUST_HOST_SOURCES: Record<string, string> = {
  option: "the trustHost option",
  AUTH_TRUST_HOST: "AUTH_TRUST_HOST",
  AUTH_URL: "AUTH_URL being set",
  platform: "a hosting platform that sets the host (VERCEL, CF_PAGES)",
  development: "NODE_ENV not being production (development default)",
  default: "the production default",
}

/** The Express mount path of the router (`req.baseUrl`), or null when unknown or the root. */
export function mountPathOf(ctx: Pick<RequestContext, "request">): string | null {
  const source = (ctx.request.source ?? {}) as SourceLike
  return typeof source.baseUrl === "string" && source.baseUrl ? source.baseUrl : null
}

export interface RequestFacts extends ProblemFacts {
  basePathSource: DiagnosticsReport["basePath"]["source"]
  socketTls: boolean
  forwardedProto: string | undefined
  forwardedHost: string | undefined
}

export function requestFacts(ctx: RequestContext): RequestFacts {
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
  const mountPath = mountPathOf(ctx)
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
  return {
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
    socketTls,
    forwardedProto,
    forwardedHost,
  }
}
