/**
 * What the diagnostics page shows: the report `GET diagnostics` builds (actions/diagnostics.ts)
 * and the page renders (pages/diagnostics.ts), also its JSON answer. Types only, so the page can
 * name the report without importing the action that imports the page (issue #25).
 */
import type { DiagnosticsProblem } from "./diagnostics-problems.js"
import type { DiagnosticsAccount } from "./diagnostics-account.js"

export interface DiagnosticsCookie {
  /** The option key: `sessionToken`, `csrfToken`, ... */
  key: string
  name: string
  options: Record<string, string | number | boolean>
}

export interface DiagnosticsProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
  /** OAuth/OIDC: the redirect_uri to register at the provider. */
  redirectUri?: string
  /** OAuth/OIDC: the redirect_uri goes through a redirect proxy (`redirectProxyUrl`). */
  viaRedirectProxy?: boolean
}

export interface DiagnosticsReport {
  production: boolean
  baseUrl: { value: string; source: "AUTH_URL" | "X-Forwarded-*" | "request"; how: string }
  authUrl: string | null
  basePath: {
    value: string
    configured: string
    source: "basePath or AUTH_URL path" | "AUTH_URL path" | "default" | "mount path"
    /** Express's mount path of the router (`req.baseUrl`); null when unknown. */
    mountPath: string | null
    agrees: boolean | null
  }
  request: {
    /** The origin this request was made on, as its headers tell (X-Forwarded-* first). */
    seenOrigin: string | null
    socketTls: boolean
    host: string | null
    xForwardedProto: string | null
    xForwardedHost: string | null
    /** Gatehouse took the URL's scheme and host from X-Forwarded-* (no AUTH_URL). */
    forwardedUsed: boolean
    /** The scheme Gatehouse uses for this request: cookie names and Secure follow it. */
    scheme: "http" | "https"
    express: { trustProxy: string; trustsPeer: boolean | null; protocol: string | null } | null
  }
  trustHost: { value: boolean; source: string; how: string }
  useSecureCookies: { option: boolean | null; effective: boolean; how: string }
  cookies: DiagnosticsCookie[]
  session: { strategy: string; maxAge: number; adapter: boolean }
  secret: { generated: boolean; count: number }
  providers: DiagnosticsProvider[]
  /** The account page (issue #15): whether it answers, and what each of its parts needs. */
  account: DiagnosticsAccount
  problems: DiagnosticsProblem[]
}
