/**
 * The mismatches the diagnostics page detects (lib/actions/diagnostics.ts), each with its fix, from
 * the facts it gathered about the request and the configuration. Codes are stable: the README's
 * "Behind a proxy" table lists them.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"

export interface DiagnosticsProblem {
  /** Stable identifier, e.g. `forwarded-proto-ignored`. */
  code: string
  problem: string
  fix: string
}

/** What the report found out, as the checks need it. */
export interface ProblemFacts {
  config: ResolvedConfig
  request: { secure: boolean; origin: string }
  host: string | undefined
  /** The first X-Forwarded-Proto value, lower case, and the first X-Forwarded-Host value. */
  fwdProto: string | undefined
  fwdHost: string | undefined
  authUrl: URL | undefined
  authUrlPath: string | undefined
  seenOrigin: string | null
  express: { trustProxy: string; trustsPeer: boolean | null; protocol: string | null } | null
  forwardedUsed: boolean
  /** X-Forwarded-* were sent (used or not) and AUTH_URL is not set. */
  forwardedSent: boolean
  mountPath: string | null
  basePathSource: string
  /** The URL to suggest for AUTH_URL. */
  suggestedUrl: string
  /** Where trustHost came from, in words. */
  trustSource: string
}

const MAX_SHOWN = 200

/** localhost, loopback or a single-label name: what a proxy's upstream usually looks like. */
function looksInternal(host: string): boolean {
  const name = host.replace(/:\d+$/, "").replace(/^\[|\]$/g, "").toLowerCase()
  return name === "localhost" || name.endsWith(".localhost") || /^127\./.test(name) || name === "::1" || !name.includes(".")
}

export function findProblems(facts: ProblemFacts): DiagnosticsProblem[] {
  const { config, request, host, fwdProto, fwdHost, authUrl, authUrlPath, seenOrigin, express, forwardedUsed, forwardedSent, mountPath, basePathSource, suggestedUrl } = facts
  const problems: DiagnosticsProblem[] = []
  const add = (code: string, problem: string, fix: string) => problems.push({ code, problem, fix })


  if (forwardedSent && !forwardedUsed) {
    add(
      "forwarded-not-trusted-by-express",
      `This request carries X-Forwarded-${fwdProto ? `Proto: ${fwdProto}` : `Host: ${fwdHost}`}, but ${express ? `Express's "trust proxy" is ${express.trustProxy}, so it does not trust the proxy` : "this is not an Express app, so no proxy is trusted"}: Gatehouse ignores the header, as Express does (req.protocol is ${express?.protocol ?? "http"}), and builds links and callback URLs from the Host header and the connection (${seenOrigin ?? "unknown"}). Anyone who reaches the app directly could set these headers, which is why an untrusted hop is not believed.`,
      `Tell Express how many proxies are in front of the app: app.set("trust proxy", 1). Or set AUTH_URL=${suggestedUrl} so that no request header decides the site's URL.`,
    )
  }
  // Same host, plain http seen, https AUTH_URL: a proxy that terminates TLS without saying so; fine
  // unless the proxy itself says the browser used http.
  const seen = seenOrigin ? new URL(seenOrigin) : undefined
  const httpBehindHttpsUrl = seen?.host === authUrl?.host && seen?.protocol === "http:" && authUrl?.protocol === "https:" && fwdProto !== "http"
  if (authUrl && seen && seenOrigin !== authUrl.origin && !httpBehindHttpsUrl) {
    if (seen.host === authUrl.host && seen.protocol === "https:" && authUrl.protocol === "http:") {
      add(
        "forwarded-proto-ignored",
        `This request was made over HTTPS${fwdProto === "https" ? " (X-Forwarded-Proto: https)" : ""}, but AUTH_URL is ${authUrl.origin}, and AUTH_URL wins: callback URLs are http:// and cookies are set without Secure and without the __Secure- prefix.`,
        `Set AUTH_URL=https://${authUrl.host}${authUrlPath ?? ""}. (Without AUTH_URL, Gatehouse follows X-Forwarded-Proto when the host is trusted; then also app.set("trust proxy", 1).)`,
      )
    } else {
      add(
        "auth-url-origin-mismatch",
        `AUTH_URL's origin ${authUrl.origin} differs from the origin this request was made on, ${seenOrigin}: redirects and callback URLs point to ${authUrl.origin}, and cookies the browser holds for ${seenOrigin} are not sent there, so sign-in does not stick.`,
        `If ${seenOrigin} is the site's public address, set AUTH_URL=${seenOrigin}${authUrlPath ?? ""}; otherwise open the site at ${authUrl.origin}.`,
      )
    }
  }
  if (authUrlPath && config.basePath !== authUrlPath) {
    add(
      "auth-url-path-mismatch",
      `AUTH_URL's path ${authUrlPath} differs from basePath ${config.basePath}; basePath wins and AUTH_URL's path is ignored.`,
      `Make them agree: set AUTH_URL=${authUrl?.origin}${config.basePath === "/" ? "" : config.basePath}, or drop the basePath option.`,
    )
  }
  if (mountPath && mountPath !== config.basePath) {
    if (config.basePathExplicit) {
      add(
        "basepath-mount-mismatch",
        `The router is mounted at ${mountPath} but basePath is ${config.basePath} (from ${basePathSource === "AUTH_URL path" ? "AUTH_URL's path" : "the basePath option or AUTH_URL's path"}): pages, redirects and callback URLs point to ${config.basePath}/..., which this router does not answer unless a proxy maps that prefix.`,
        `Mount the router where the links point, app.use("${config.basePath}", authRouter(config)), or set basePath (and AUTH_URL's path) to ${mountPath}.`,
      )
    } else {
      add(
        "basepath-mount-mismatch",
        `The router is mounted at ${mountPath} but basePath is the default ${config.basePath}: the pages follow the mount path, but requireAuth redirects and the server-side signIn/signOut helpers use ${config.basePath}.`,
        `Set basePath: "${mountPath}" in the configuration (or AUTH_URL=${seenOrigin ?? request.origin}${mountPath}).`,
      )
    }
  }
  if (config.useSecureCookies === true && !request.secure) {
    add(
      "secure-cookies-over-http",
      `useSecureCookies is true but this request is served over http as far as Gatehouse can tell: browsers refuse Secure and __Secure- cookies over http (except on localhost), so the session and CSRF cookies are dropped.`,
      `Serve the site over HTTPS. Behind a TLS-terminating proxy, have it send X-Forwarded-Proto: https and call app.set("trust proxy", 1), or set AUTH_URL=https://...; otherwise remove useSecureCookies.`,
    )
  }
  if (config.useSecureCookies === false && request.secure) {
    add(
      "insecure-cookies-over-https",
      "useSecureCookies is false although the site is served over HTTPS: the session cookie is sent without Secure and can leak over plain http.",
      "Remove useSecureCookies: false; the default follows the site's scheme.",
    )
  }
  if (!config.trustHost && !authUrl) {
    add(
      "untrusted-host",
      "trustHost is false and AUTH_URL is not set: Gatehouse cannot tell which host it serves.",
      `Set AUTH_URL=${suggestedUrl}, or trustHost: true (AUTH_TRUST_HOST=true) behind a proxy you control that overwrites Host and X-Forwarded-Host.`,
    )
  } else if (!authUrl && config.trustHostSource === "development") {
    add(
      "trusthost-development-only",
      "AUTH_URL is not set and the Host/X-Forwarded-* headers are trusted only because NODE_ENV is not production: in production the router refuses to start (UntrustedHost).",
      `In production set AUTH_URL=${suggestedUrl}, or trustHost: true (AUTH_TRUST_HOST=true) behind a proxy you control that overwrites Host and X-Forwarded-Host.`,
    )
  }
  if (!authUrl && fwdProto && !fwdHost && host && looksInternal(host) && seenOrigin) {
    add(
      "forwarded-host-missing",
      `X-Forwarded-Proto is set but X-Forwarded-Host is not, and the Host header is ${host.slice(0, MAX_SHOWN)}, which looks like the proxy's upstream address: every URL Gatehouse writes points to ${seenOrigin}.`,
      "Have the proxy pass the public host (nginx: proxy_set_header Host $host; or set X-Forwarded-Host), or set AUTH_URL to the site's public URL.",
    )
  }
  if (config.generatedSecret) {
    add(
      "dev-secret-generated",
      "No secret is set: a random one was generated for this process, so every session ends when it restarts (and production refuses to start).",
      "Set AUTH_SECRET (for example the output of `openssl rand -base64 33`), or the secret option.",
    )
  }
  return problems
}
