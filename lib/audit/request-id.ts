/**
 * Request ids. Each request through the router (and `Auth()`, `signIn()`, `signOut()`) gets one:
 * the app's own (`req.id`, as pino-http and express-request-id set it), else the incoming
 * `X-Request-Id` when the `requestId.trustHeader` option says a proxy in front sets it (off by
 * default: a client could otherwise choose the id its requests are logged under), else a new
 * random one. It is carried by audit records and log lines, and sent back as `X-Request-Id` when
 * something records it (an audit callback, a logger, verbose logs) or the `requestId` option is set.
 */
import { randomUUID } from "node:crypto"
import { InvalidOption } from "../errors.js"

/** What an id may look like when it comes from outside: short, and no characters that could forge a log line. */
const WELL_FORMED = /^[A-Za-z0-9._:=+/@-]{1,128}$/

export interface RequestIdOptions {
  /** Take a well-formed incoming request-id header (set by your proxy). Default false. */
  trustHeader?: boolean
  /** The header to read and answer with. Default `x-request-id`. */
  header?: string
}

export interface ResolvedRequestId {
  readonly trustHeader: boolean
  /** Lower case. */
  readonly header: string
  /** The app set the option: answer the id even when nothing records it. */
  readonly configured: boolean
}

export function resolveRequestId(options: unknown): ResolvedRequestId {
  if (options === undefined) return Object.freeze({ trustHeader: false, header: "x-request-id", configured: false })
  if (typeof options !== "object" || options === null) throw new InvalidOption(`requestId must be an object (got ${String(options)})`)
  const { trustHeader, header } = options as RequestIdOptions
  if (trustHeader !== undefined && typeof trustHeader !== "boolean") throw new InvalidOption(`requestId.trustHeader must be true or false (got ${String(trustHeader)})`)
  if (header !== undefined && (typeof header !== "string" || !/^[A-Za-z0-9-]{1,64}$/.test(header))) {
    throw new InvalidOption(`requestId.header must be an HTTP header name (got ${String(header)})`)
  }
  return Object.freeze({ trustHeader: trustHeader ?? false, header: (header ?? "x-request-id").toLowerCase(), configured: true })
}

export function isWellFormedId(value: unknown): value is string {
  return typeof value === "string" && WELL_FORMED.test(value)
}

/** The id for a request: the app's own, the trusted header's, or a new one. */
export function pickRequestId(options: ResolvedRequestId, own: unknown, header: (name: string) => string | undefined): string {
  if (typeof own === "number" && Number.isSafeInteger(own)) return String(own)
  if (isWellFormedId(own)) return own
  if (options.trustHeader) {
    const incoming = header(options.header)
    if (isWellFormedId(incoming)) return incoming
  }
  return randomUUID()
}
