/**
 * The logger. Levels, from quietest: `silent` < `error` < `warn` < `verbose`. A level set in the
 * user's partial `logger` always receives its messages, whatever `logLevel` says; levels the user
 * does not override go to the console, filtered by `logLevel`. A pino or winston instance given
 * as `logger` receives every line as structured fields (lib/core/structured-logger.ts) and
 * filters by its own level. Lines written during a tracked request carry its request id.
 */
import { AuthError } from "../errors.js"
import { currentScope } from "./request-scope.js"
import { WARNINGS, type WarningCode } from "../warnings.js"
import { firstTimeSeen, isConfigurationState, isOrdinaryRefusal } from "./log-kinds.js"
import { EXPECTED_ERRORS, isStructuredLogger, structuredLogger, type StructuredLoggerInstance } from "./structured-logger.js"

export type LogLevel = "error" | "warn" | "verbose" | "silent"
export const LOG_LEVELS: readonly LogLevel[] = ["silent", "error", "warn", "verbose"]

export interface LoggerInstance {
  error(error: Error): void
  /** `detail`: what this occurrence is about (the paths, the request's headers) and its fix, when known. */
  warn(code: WarningCode, detail?: string): void
  debug(message: string, metadata?: unknown): void
}

const PREFIX = "[gatehouse]"

const EXPECTED = EXPECTED_ERRORS

/** ` (request <id>)` during a tracked request, else nothing. */
function requestSuffix(): string {
  const scope = currentScope()
  return scope ? ` (request ${scope.requestId})` : ""
}

function consoleError(error: Error): void {
  const name = error instanceof AuthError ? error.type : error.name
  console.error(`${PREFIX}[error] ${name}: ${error.message}${requestSuffix()}`)
  const expected = error instanceof AuthError && (EXPECTED.has(error.type) || isConfigurationState(error))
  const cause = (error as { cause?: unknown }).cause
  if (cause && typeof cause === "object" && "err" in cause && cause.err instanceof Error) {
    const { err, ...details } = cause as { err: Error } & Record<string, unknown>
    console.error(`${PREFIX}[cause]:`, err.stack ?? String(err))
    if (Object.keys(details).length) console.error(`${PREFIX}[details]:`, safeJson(details))
    return
  }
  if (cause !== undefined) console.error(`${PREFIX}[details]:`, safeJson(cause))
  if (error.stack && !expected) console.error(`${PREFIX}[stack]:`, error.stack)
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v) => (v instanceof Error ? { name: v.name, message: v.message } : v), 2)
  } catch {
    return String(value)
  }
}

function consoleWarn(code: WarningCode, detail?: string): void {
  console.warn(`${PREFIX}[warning][${code}] ${WARNINGS[code] ?? ""}${detail ? ` ${detail}` : ""}${requestSuffix()}`)
}

/** An ordinary refusal at debug level: its type, code and message, never a stack. */
function refusalAsDebug(debug: (message: string, metadata?: unknown) => void) {
  return (error: Error) => {
    const code = (error as { code?: unknown }).code
    debug(`${error instanceof AuthError ? error.type : error.name}: ${error.message}`, typeof code === "string" ? { code } : undefined)
  }
}

function consoleDebug(message: string, metadata?: unknown): void {
  if (metadata === undefined) console.debug(`${PREFIX}[debug]: ${message}${requestSuffix()}`)
  else console.debug(`${PREFIX}[debug]: ${message}${requestSuffix()}`, safeJson(metadata))
}

const noop = () => {}

/**
 * Builds the logger once per configuration. Calls into user code are guarded: a logger that
 * throws must not turn a logged problem into a crashed request.
 */
export function createLogger(level: LogLevel, given: Partial<LoggerInstance> | StructuredLoggerInstance | undefined): LoggerInstance {
  const rank = LOG_LEVELS.indexOf(level)
  const user = isStructuredLogger(given) ? structuredLogger(given) : (given as Partial<LoggerInstance> | undefined)
  const guard = <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      try {
        fn(...args)
      } catch {
        // A broken custom logger is not worth failing a request for.
      }
    }
  const error = guard(user?.error ?? (rank >= 1 ? consoleError : noop))
  const debug = guard(user?.debug ?? (rank >= 3 ? consoleDebug : noop))
  // A structured logger writes a refusal at info level; the others at debug (verbose).
  const refusal = guard(isStructuredLogger(given) ? (user as ReturnType<typeof structuredLogger>).refusal : refusalAsDebug(debug))
  // Configuration states already logged by this logger (so this configuration): once each.
  const states = new Set<string>()
  return {
    error: (failure: Error) => {
      if (isOrdinaryRefusal(failure)) return refusal(failure)
      if (isConfigurationState(failure) && !firstTimeSeen(states, failure)) return
      error(failure)
    },
    warn: guard(user?.warn ?? (rank >= 2 ? consoleWarn : noop)),
    debug,
  }
}

/** Warn once per logger for each code; `detail` (the first occurrence's) goes with it. */
export function createWarnOnce(logger: LoggerInstance): (code: WarningCode, detail?: string) => void {
  const seen = new Set<WarningCode>()
  return (code, detail) => {
    if (seen.has(code)) return
    seen.add(code)
    if (detail === undefined) logger.warn(code)
    else logger.warn(code, detail)
  }
}
