/**
 * The site's origin for a request, and whether it is served over HTTPS.
 *
 * With AUTH_URL set, that is the answer, whatever the request says. Without it, the host is
 * trusted (configuration resolution refuses to start otherwise): the first value of
 * X-Forwarded-Proto / X-Forwarded-Host wins over the connection and the Host header, as a proxy
 * would set them. A malformed value is refused with a named error, never turned into a URL.
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
  const forwarded = first(hints.header("x-forwarded-proto"))?.toLowerCase()
  return forwarded === "https" || forwarded === "http" ? forwarded : hints.protocol
}

export function siteOf(authUrl: URL | undefined, hints: SiteHints): Site {
  if (authUrl) return { origin: authUrl.origin, secure: authUrl.protocol === "https:" }
  const forwardedProto = first(hints.header("x-forwarded-proto"))?.toLowerCase()
  if (forwardedProto !== undefined && forwardedProto !== "http" && forwardedProto !== "https") {
    throw new InvalidRequest("X-Forwarded-Proto must be http or https")
  }
  const protocol = forwardedProto ?? hints.protocol
  const host = first(hints.header("x-forwarded-host")) ?? hints.header("host")
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
