/**
 * `gatehouse/errors`: every failure Gatehouse can report, each an `AuthError` with a stable `type`.
 * The base and the core's errors are in lib/core/ (errors.ts, named-errors.ts); a capability's own
 * are in its folder (lib/<capability>/errors.ts, issue #25), each listed once in error-classes.ts.
 * This file only re-exports them and lists every type, so importing it pulls in declarations only,
 * and apps that test `instanceof` need one import.
 */
import type { ErrorType } from "./core/errors.js"
import * as classes from "./error-classes.js"

export { AuthError, SignInError, isAuthError, type AuthErrorOptions, type ErrorCause, type ErrorType } from "./core/errors.js"
export * from "./error-classes.js"

/** The complete list of error types, sorted: `Configuration` (a plain `AuthError`) and each class's `type`. */
export const ERROR_TYPES: readonly ErrorType[] = [...new Set<ErrorType>(["Configuration", ...Object.values(classes).map((cls) => cls.type)])].sort()
