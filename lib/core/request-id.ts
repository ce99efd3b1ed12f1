/**
 * Request ids. Each request through the router (and `Auth()`, `signIn()`, `signOut()`) gets one:
 * the app's own (`req.id`, as pino-http and express-request-id set it), else the incoming
 * `X-Request-Id` when the `requestId.trustHeader` option says a proxy in front sets it (off by
 * default: a client could otherwise choose the id its requests are logged under), else a new
 * random one. It is carried by audit records and log lines, and sent back as `X-Request-Id` when
 * something records it (an audit callback, a logger, verbose logs) or the `requestId` option is
 * set (request-tracking.ts). The option itself is resolved with the configuration.
 */
import { randomUUID } from "node:crypto"

/** What an id may look like when it comes from outside: short, and no characters that could forge a log line. */
const WELL_FORMED = /^[A-Za-z0-9._:=+/@-]{1,128}$/

export function isWellFormedId(value: unknown): value is string {
  return typeof value === "string" && WELL_FORMED.test(value)
}

/** The id for a request: the app's own, the trusted header's, or a new one. */
export function pickRequestId(options: { readonly trustHeader: boolean; readonly header: string }, own: unknown, header: (name: string) => string | undefined): string {
  if (typeof own === "number" && Number.isSafeInteger(own)) return String(own)
  if (isWellFormedId(own)) return own
  if (options.trustHeader) {
    const incoming = header(options.header)
    if (isWellFormedId(incoming)) return incoming
  }
  return randomUUID()
}
