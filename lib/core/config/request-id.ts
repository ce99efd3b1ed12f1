/**
 * The `requestId` option: whether to take a well-formed incoming request-id header (set by a
 * proxy in front; off by default) and which header to read and answer with. The id itself is
 * picked per request in lib/core/request-id.ts. Part of the core: request ids serve the logs as
 * well as the audit trail.
 */
import { InvalidOption } from "../../errors.js"

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
