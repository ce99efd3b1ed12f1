/**
 * `gatehouse/errors`: every failure Gatehouse can report, each an `AuthError` with a stable `type`.
 * The base and the core's errors are in lib/core/ (errors.ts, named-errors.ts); a capability's own
 * are in its folder (lib/<capability>/errors.ts, issue #25). This file only re-exports them and
 * lists every type, so importing it pulls in declarations only, and apps that test `instanceof`
 * need one import.
 */
import type { ErrorType } from "./core/errors.js"
import * as core from "./core/named-errors.js"
import * as account from "./account/errors.js"
import * as devices from "./devices/errors.js"
import * as emailCodes from "./email-codes/errors.js"
import * as federation from "./federation/errors.js"
import * as passkeys from "./passkeys/errors.js"
import * as password from "./password/errors.js"
import * as tokens from "./tokens/errors.js"
import * as twoFactor from "./two-factor/errors.js"

export { AuthError, SignInError, isAuthError, type AuthErrorOptions, type ErrorCause, type ErrorType } from "./core/errors.js"
export * from "./core/named-errors.js"
export * from "./account/errors.js"
export * from "./devices/errors.js"
export * from "./email-codes/errors.js"
export * from "./federation/errors.js"
export * from "./passkeys/errors.js"
export * from "./password/errors.js"
export * from "./tokens/errors.js"
export * from "./two-factor/errors.js"

const CLASSES = [core, account, devices, emailCodes, federation, passkeys, password, tokens, twoFactor].flatMap((module) => Object.values(module))

/** The complete list of error types, sorted: `Configuration` (a plain `AuthError`) and each class's `type`. */
export const ERROR_TYPES: readonly ErrorType[] = [...new Set<ErrorType>(["Configuration", ...CLASSES.map((cls) => cls.type)])].sort()
