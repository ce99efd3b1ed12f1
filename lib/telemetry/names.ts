/**
 * Every span, metric and attribute name Gatehouse emits, in one place (the README's
 * "Observability" tables list them). OpenTelemetry semantic-convention style: dotted lower-case
 * namespaces, `snake_case` words, units in UCUM (`s`, `{attempt}`), and the standard `error.type`.
 *
 * What never goes into an attribute: tokens, codes, passwords, cookies, secrets, URLs with query
 * strings, user ids, or full email addresses (a mail's recipient domain at most).
 */
export const SCOPE = "gatehouse"

export const ATTR = {
  action: "gatehouse.action",
  providerId: "gatehouse.provider.id",
  providerType: "gatehouse.provider.type",
  outcome: "gatehouse.outcome",
  errorType: "error.type",
  adapterMethod: "gatehouse.adapter.method",
  storeOperation: "gatehouse.store.operation",
  providerOperation: "gatehouse.provider.operation",
  sessionStrategy: "gatehouse.session.strategy",
  rateLimitMethod: "gatehouse.rate_limit.method",
  botAction: "gatehouse.bot.action",
  revocationScope: "gatehouse.revocation.scope",
  mailDomain: "gatehouse.mail.recipient_domain",
  httpMethod: "http.request.method",
  httpStatus: "http.response.status_code",
  serverAddress: "server.address",
  serverPort: "server.port",
} as const

export const METRIC = {
  signins: "gatehouse.signin.attempts",
  signouts: "gatehouse.signout.requests",
  sessionReads: "gatehouse.session.reads",
  rateLimitRefusals: "gatehouse.rate_limit.refusals",
  botRefusals: "gatehouse.bot.refusals",
  revocations: "gatehouse.session.revocations",
  refreshes: "gatehouse.token.refreshes",
  providerDuration: "gatehouse.provider.request.duration",
  adapterDuration: "gatehouse.adapter.operation.duration",
} as const

/** `gatehouse.<action>` with `-` as `_`: `gatehouse.signin`, `gatehouse.verify_request`. */
export function actionSpanName(action: string): string {
  return `gatehouse.${action.replace(/-/g, "_")}`
}

/** `error.type` of a failure: an AuthError's stable `type`, else the error's class name. */
export function errorType(error: unknown): string {
  if (error && typeof error === "object") {
    const type = (error as { type?: unknown }).type
    if (typeof type === "string") return type
    const name = (error as { name?: unknown }).name
    if (typeof name === "string" && name) return name
  }
  return "Error"
}
