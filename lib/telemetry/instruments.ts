/**
 * The tracer and the metric instruments of one configuration, made once when the configuration is
 * resolved (never per request). With no OpenTelemetry SDK registered they are the API's no-ops.
 */
import { metrics, trace, type Attributes, type Counter, type Histogram, type Tracer } from "@opentelemetry/api"
import { ATTR, METRIC, SCOPE } from "./names.js"
import type { TelemetryOptions } from "./options.js"

export interface Telemetry {
  readonly tracer: Tracer
  readonly signins: Counter
  readonly signouts: Counter
  readonly sessionReads: Counter
  readonly rateLimitRefusals: Counter
  readonly botRefusals: Counter
  readonly revocations: Counter
  readonly refreshes: Counter
  readonly providerDuration: Histogram
  readonly adapterDuration: Histogram
  /** Frozen attribute sets for session reads (no object made per read): `[strategy][outcome]`. */
  readonly readAttributes: Readonly<Record<"cookie" | "database", Readonly<Record<SessionReadOutcome, Attributes>>>>
}

/** `active`: a session; `none`: no session cookie; `invalid`: a cookie that was cleared; `error`: the adapter failed. */
export type SessionReadOutcome = "active" | "none" | "invalid" | "error"

const OUTCOMES: readonly SessionReadOutcome[] = ["active", "none", "invalid", "error"]

function readAttributes(strategy: "cookie" | "database"): Readonly<Record<SessionReadOutcome, Attributes>> {
  const sets = {} as Record<SessionReadOutcome, Attributes>
  for (const outcome of OUTCOMES) sets[outcome] = Object.freeze({ [ATTR.sessionStrategy]: strategy, [ATTR.outcome]: outcome })
  return Object.freeze(sets)
}

/** Seconds, with bounds for calls that take from a millisecond to tens of seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

export function createTelemetry(options: TelemetryOptions): Telemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE)
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE)
  const histogram = (name: string, description: string) => meter.createHistogram(name, { description, unit: "s", advice: { explicitBucketBoundaries: DURATION_BUCKETS } })
  return Object.freeze({
    tracer,
    signins: meter.createCounter(METRIC.signins, { description: "Sign-in attempts completed at a callback, by provider and outcome", unit: "{attempt}" }),
    signouts: meter.createCounter(METRIC.signouts, { description: "Sign-out requests (POST signout), by outcome", unit: "{request}" }),
    sessionReads: meter.createCounter(METRIC.sessionReads, { description: "Session reads, by strategy and outcome", unit: "{read}" }),
    rateLimitRefusals: meter.createCounter(METRIC.rateLimitRefusals, { description: "Attempts refused by a rate limit, by sign-in method", unit: "{refusal}" }),
    botRefusals: meter.createCounter(METRIC.botRefusals, { description: "Requests refused by bot protection (no, a wrong, or a used challenge answer), by action", unit: "{refusal}" }),
    revocations: meter.createCounter(METRIC.revocations, { description: "Sessions revoked, by scope (session, others, user, backchannel)", unit: "{revocation}" }),
    refreshes: meter.createCounter(METRIC.refreshes, { description: "Provider access-token refreshes, by provider and outcome", unit: "{refresh}" }),
    providerDuration: histogram(METRIC.providerDuration, "Duration of HTTP calls to OAuth/OIDC providers (discovery, token, userinfo, JWKS)"),
    adapterDuration: histogram(METRIC.adapterDuration, "Duration of database adapter calls"),
    readAttributes: Object.freeze({ cookie: readAttributes("cookie"), database: readAttributes("database") }),
  })
}
