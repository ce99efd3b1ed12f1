/**
 * The span of one action (`gatehouse.signin`, `gatehouse.callback`, ...), the active span while the
 * action runs (its adapter, provider, mail and store calls are its children) and itself a child of
 * whatever span is active when the request arrives (the HTTP server span of
 * `@opentelemetry/instrumentation-http`, an Express span, or the app's own). Attributes: the
 * action, the provider's id and type (only a configured provider's), the outcome, `error.type` and
 * the answer's status. A callback also counts a sign-in attempt, a POST signout a sign-out.
 */
import { SpanKind, type Attributes } from "@opentelemetry/api"
import type { InternalRequest } from "../core/request.js"
import type { Provider } from "../providers/types.js"
import type { ResponseInternal } from "../types.js"
import type { Telemetry } from "./instruments.js"
import { actionSpanName, ATTR, errorType } from "./names.js"
import { markFailed } from "./span.js"

/** Filled in by the dispatcher while the action runs. */
export interface ActionTrace {
  provider?: Provider
  error?: unknown
  /** The session cookie's name for this request: a callback that sets it signed someone in. */
  sessionCookie?: string
}

/** The answer sets a session cookie (whole or in chunks `<name>.<n>`) with a value. */
function setsSession(response: ResponseInternal, name: string | undefined): boolean {
  if (!name || !response.cookies) return false
  return response.cookies.some((cookie) => cookie.value !== "" && (cookie.name === name || cookie.name.startsWith(`${name}.`)))
}

const NAMES = new Map<string, string>()

function spanName(action: string): string {
  let name = NAMES.get(action)
  if (!name) NAMES.set(action, (name = actionSpanName(action)))
  return name
}

export function traceAction(telemetry: Telemetry, request: InternalRequest, run: (trace: ActionTrace) => Promise<ResponseInternal>): Promise<ResponseInternal> {
  const attributes: Attributes = { [ATTR.action]: request.action, [ATTR.httpMethod]: request.method }
  return telemetry.tracer.startActiveSpan(spanName(request.action), { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    const trace: ActionTrace = {}
    let failure: string | undefined = "Error"
    let result = "failure"
    try {
      const response = await run(trace)
      failure = trace.error === undefined ? undefined : errorType(trace.error)
      // A callback that answers without a session (an email link's confirm page, the second
      // factor's page) has not finished signing in: `pending`.
      result = failure ? "failure" : request.action !== "callback" || setsSession(response, trace.sessionCookie) ? "success" : "pending"
      span.setAttribute(ATTR.httpStatus, response.status ?? (response.redirect ? 302 : 200))
      return response
    } catch (error) {
      // `raw` integrations get AuthErrors thrown to them.
      failure = errorType(error)
      throw error
    } finally {
      const provider = trace.provider
      const common: Attributes = provider ? { [ATTR.providerId]: provider.id, [ATTR.providerType]: provider.type } : {}
      const outcome: Attributes = { [ATTR.outcome]: result, ...(failure && { [ATTR.errorType]: failure }) }
      span.setAttributes({ ...common, ...outcome })
      if (failure) markFailed(span, failure)
      span.end()
      if (request.action === "callback" && provider) telemetry.signins.add(1, { ...common, ...outcome })
      else if (request.action === "signout" && request.method === "POST") telemetry.signouts.add(1, outcome)
    }
  })
}
