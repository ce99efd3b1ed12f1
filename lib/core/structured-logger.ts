/**
 * A pino or winston instance as the `logger` option: each Gatehouse line becomes one structured
 * entry (fields, not a preformatted string), with `requestId` during a tracked request. pino is
 * called as `logger.error(fields, message)`, winston as `logger.error(message, fields)`; each
 * instance filters by its own level. Recognised by shape, so no import of either package.
 */
import { AuthError } from "../errors.js"
import { currentScope } from "./request-scope.js"
import { WARNINGS, type WarningCode } from "../warnings.js"
import { CONFIGURATION_STATES } from "./log-kinds.js"

/**
 * What Gatehouse needs of a structured logger (pino and winston both have these). The methods are
 * written as the plain logger's, which pino's and winston's overloads accept, so an object literal
 * given as `logger` keeps its parameter types (`error` is an Error) whichever form TypeScript weighs.
 */
export interface StructuredLoggerInstance {
  error(error: Error): unknown
  warn(code: WarningCode): unknown
  debug(message: string, metadata?: unknown): unknown
  info(message: string): unknown
}

type Emit = (level: "error" | "warn" | "info" | "debug", fields: Record<string, unknown>, message: string) => void

/**
 * Expected outcomes (a bad token, method or body; wrong credentials; a refused sign-in) are
 * ordinary traffic: their own stack only points into Gatehouse, so they are logged without it.
 */
export const EXPECTED_ERRORS: ReadonlySet<string> = new Set([
  "CredentialsSignin",
  "AccessDenied",
  "Verification",
  "MissingCSRF",
  "InvalidRequest",
  "PayloadTooLarge",
  "UnsupportedMediaType",
  "MethodNotAllowed",
  "UnknownAction",
  "InvalidProvider",
  "RateLimited",
])

const isPino = (logger: Record<string, unknown>) =>
  typeof logger.bindings === "function" && typeof (logger.levels as { values?: unknown } | undefined)?.values === "object"

const isWinston = (logger: Record<string, unknown>) => typeof logger.log === "function" && Array.isArray(logger.transports)

export function isStructuredLogger(logger: unknown): logger is StructuredLoggerInstance {
  if (typeof logger !== "object" || logger === null) return false
  const candidate = logger as Record<string, unknown>
  if (!["error", "warn", "debug", "info"].every((level) => typeof candidate[level] === "function")) return false
  return isPino(candidate) || isWinston(candidate)
}

function plainError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) }
  return { type: error instanceof AuthError ? error.type : error.name, message: error.message, stack: error.stack }
}

/** The fields of an error line: its type, message, cause and details, and the stack when unexpected. */
function errorFields(error: Error, pino: boolean): Record<string, unknown> {
  const type = error instanceof AuthError ? error.type : error.name
  const fields: Record<string, unknown> = { type }
  const cause = (error as { cause?: unknown }).cause
  if (cause && typeof cause === "object" && "err" in cause) {
    const { err, ...details } = cause as { err: unknown } & Record<string, unknown>
    fields.cause = plainError(err)
    if (Object.keys(details).length) fields.details = details
  } else if (cause !== undefined) {
    fields.details = cause
  }
  if (!(error instanceof AuthError && (EXPECTED_ERRORS.has(error.type) || CONFIGURATION_STATES.has(error.type)))) {
    if (pino) fields.err = error
    else fields.stack = error.stack
  }
  return fields
}

function withRequest(fields: Record<string, unknown>): Record<string, unknown> {
  const scope = currentScope()
  if (scope) fields.requestId = scope.requestId
  return fields
}

export function structuredLogger(logger: StructuredLoggerInstance) {
  const pino = isPino(logger as unknown as Record<string, unknown>)
  const target = logger as unknown as Record<string, (...args: unknown[]) => unknown>
  const emit: Emit = pino
    ? (level, fields, message) => void target[level]!.call(logger, fields, message)
    : (level, fields, message) => void target[level]!.call(logger, message, fields)
  return {
    error: (error: Error) => emit("error", withRequest({ component: "gatehouse", ...errorFields(error, pino) }), error.message),
    // An ordinary refusal (a wrong password): info, with its type and code, never error (lib/core/log-kinds.ts).
    refusal: (error: Error) => {
      const fields: Record<string, unknown> = { component: "gatehouse", type: error instanceof AuthError ? error.type : error.name }
      const code = (error as { code?: unknown }).code
      if (typeof code === "string") fields.code = code
      emit("info", withRequest(fields), error.message)
    },
    warn: (code: WarningCode, detail?: string) =>
      emit("warn", withRequest({ component: "gatehouse", code, ...(detail !== undefined && { detail }) }), detail ? `${WARNINGS[code] ?? code} ${detail}` : (WARNINGS[code] ?? code)),
    debug: (message: string, metadata?: unknown) => {
      const fields: Record<string, unknown> = { component: "gatehouse" }
      if (metadata !== undefined) {
        if (typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)) Object.assign(fields, metadata)
        else fields.metadata = metadata
      }
      emit("debug", withRequest(fields), message)
    },
  }
}
