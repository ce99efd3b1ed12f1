/**
 * The site's origin for a request, and whether it is served over HTTPS.
 *
 * With AUTH_URL set, that is the answer, whatever the request says. Without it, the host is
 * trusted (configuration resolution refuses to start otherwise): the Host header and the
 * connection's scheme, unless the hop that sent the request is trusted to speak for the client
 * (Express's `trust proxy`, the rule the rate limiter follows too). Only then does the first value
 * of X-Forwarded-Proto / X-Forwarded-Host win, as a proxy sets them: a client talking to the app
 * directly cannot choose the host written into sign-in links and OAuth callbacks. A malformed
 * value is refused with a named error, never turned into a URL.
 */
import { InvalidRequest } from "../errors.js"

export interface Site {
  origin: string
  secure: boolean
}

export interface SiteHints {
  /** The scheme of the connection itself. */
  protocol: "http" | "https"
  header(name: string): string | undefined
  /**
   * Whether the hop that sent the request may set X-Forwarded-* (asked only when such a header
   * is present). Absent: never.
   */
  trustForwarded?: () => boolean
}

/**
 * The web-standard core (`Auth()`, `createActionURL`) has no connection to ask: the server that
 * built the Request is in front of it, and X-Forwarded-* are read as Auth.js reads them (that
 * server must set or strip them). Documented in the README's "Host trust".
 */
export const TRUSTED = (): boolean => true

/** A forwarded header's value, read only from a trusted hop. */
function forwarded(hints: SiteHints, name: string): string | undefined {
  const value = hints.header(name)
  return value !== undefined && hints.trustForwarded?.() === true ? value : undefined
}

/** RFC 3986 reg-name (DNS labels) or an IPv6 literal, with an optional port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/

const first = (value: string | undefined) => {
  if (value === undefined) return undefined
  const comma = value.indexOf(",")
  const item = (comma === -1 ? value : value.slice(0, comma)).trim()
  return item || undefined
}

export function requestScheme(authUrl: URL | undefined, hints: SiteHints): "http" | "https" {
  if (authUrl) return authUrl.protocol === "https:" ? "https" : "http"
  const proto = first(forwarded(hints, "x-forwarded-proto"))?.toLowerCase()
  return proto === "https" || proto === "http" ? proto : hints.protocol
}

export function siteOf(authUrl: URL | undefined, hints: SiteHints): Site {
  if (authUrl) return { origin: authUrl.origin, secure: authUrl.protocol === "https:" }
  const forwardedProto = first(forwarded(hints, "x-forwarded-proto"))?.toLowerCase()
  if (forwardedProto !== undefined && forwardedProto !== "http" && forwardedProto !== "https") {
    throw new InvalidRequest("X-Forwarded-Proto must be http or https")
  }
  const protocol = forwardedProto ?? hints.protocol
  const host = first(forwarded(hints, "x-forwarded-host")) ?? hints.header("host")
  if (!host || host.length > 255 || !HOST.test(host)) {
    throw new InvalidRequest("The Host (or X-Forwarded-Host) header is missing or malformed; set AUTH_URL to fix the site's URL")
  }
  let origin: string
  try {
    origin = new URL(`${protocol}://${host}`).origin
  } catch {
    throw new InvalidRequest("The Host (or X-Forwarded-Host) header is malformed")
  }
  return { origin, secure: protocol === "https" }
}
