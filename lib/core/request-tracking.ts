/**
 * Wraps one action request (`dispatch`): it gets its id (request-id.ts), answered as
 * `X-Request-Id` when something records it or the app set `requestId`; when someone reads
 * per-request facts (`config.trackRequests`), the work runs in the request's scope
 * (request-scope.ts) so that audit records and log lines carry the id, address and user agent.
 */
import type { ResolvedConfig } from "./config/resolved.js"
import type { InternalRequest } from "./request.js"
import type { ResponseInternal } from "../types.js"
import { pickRequestId } from "./request-id.js"
import { runInScope, userAgentOf } from "./request-scope.js"

export async function withRequestScope(request: InternalRequest, config: ResolvedConfig, work: () => Promise<ResponseInternal>): Promise<ResponseInternal> {
  // Nothing records the id and the app did not ask for it: no id, no header (no bytes on every answer).
  const own = (request.source as { id?: unknown } | undefined)?.id
  if (!config.trackRequests && !config.requestId.configured && request.requestId === undefined && own === undefined) return work()
  const requestId = (request.requestId ??= pickRequestId(config.requestId, own, request.header))
  const response = config.trackRequests
    ? await runInScope({ requestId, ip: request.clientAddress, userAgent: userAgentOf(request.header("user-agent")) }, work)
    : await work()
  const name = config.requestId.header === "x-request-id" ? "X-Request-Id" : config.requestId.header
  return { ...response, headers: { ...response.headers, [name]: requestId } }
}
