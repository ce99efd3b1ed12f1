/**
 * Wraps one action request (`dispatch`): it gets its id (lib/audit/request-id.ts), answered as
 * `X-Request-Id`; when someone reads per-request facts (`config.trackRequests`), the work runs in
 * the request's scope so that audit records and log lines carry the id, address and user agent.
 */
import type { ResolvedConfig } from "../core/config/resolve.js"
import type { InternalRequest } from "../core/request.js"
import type { ResponseInternal } from "../types.js"
import { pickRequestId } from "./request-id.js"
import { runInScope, userAgentOf } from "./scope.js"

export async function withRequestScope(request: InternalRequest, config: ResolvedConfig, work: () => Promise<ResponseInternal>): Promise<ResponseInternal> {
  const requestId = (request.requestId ??= pickRequestId(config.requestId, (request.source as { id?: unknown } | undefined)?.id, request.header))
  const response = config.trackRequests
    ? await runInScope({ requestId, ip: request.clientAddress, userAgent: userAgentOf(request.header("user-agent")) }, work)
    : await work()
  const name = config.requestId.header === "x-request-id" ? "X-Request-Id" : config.requestId.header
  return { ...response, headers: { ...response.headers, [name]: requestId } }
}
