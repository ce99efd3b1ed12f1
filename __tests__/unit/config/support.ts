/**
 * Helpers for the configuration unit tests (not a test file itself): fresh configuration objects
 * (resolveConfig caches per object), explicit environments, and a recording logger.
 */
import { jest } from "@jest/globals"
import type { EnvObject } from "../../../lib/core/config/env.js"
import { resolveConfig, type ResolvedConfig } from "../../../lib/core/config/resolve.js"
import type { AuthError } from "../../../lib/errors.js"
import { credentials, SECRET } from "../../helpers/app.js"

/** Development: the host is trusted and a missing secret is generated. */
export const DEV_ENV: EnvObject = Object.freeze({ NODE_ENV: "development" })

/** Production with everything it needs. */
export const PROD_ENV: EnvObject = Object.freeze({ NODE_ENV: "production", AUTH_SECRET: SECRET, AUTH_URL: "https://example.com" })

/** A fresh, loosely typed configuration: the credentials provider, a fixed secret, quiet logs. */
export function config(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { secret: SECRET, providers: [credentials()], logLevel: "silent", ...overrides }
}

/** Resolves a fresh configuration with `overrides` in development. */
export function resolveWith(overrides: Record<string, unknown> = {}, env: EnvObject = DEV_ENV): ResolvedConfig {
  return resolveConfig(config(overrides), env)
}

/** The error `fn` throws; fails the test when it throws nothing. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error("expected the call to throw, but it returned")
}

/**
 * Asserts that resolving `cfg` throws an `errorClass` with `type`, whose message contains every
 * fragment (the option path and the value received).
 */
export function expectConfigError(
  cfg: object,
  errorClass: abstract new (...args: never[]) => AuthError,
  type: string,
  fragments: readonly string[],
  env: EnvObject = DEV_ENV,
): AuthError {
  const error = thrown(() => resolveConfig(cfg, env))
  expect(error).toBeInstanceOf(errorClass)
  const authError = error as AuthError
  expect(authError.type).toBe(type)
  for (const fragment of fragments) expect(authError.message).toContain(fragment)
  return authError
}

/** A logger that records warning codes (and errors / debug lines) instead of printing them. */
export function recordingLogger() {
  const warn = jest.fn<(code: string) => void>()
  const error = jest.fn<(error: Error) => void>()
  const debug = jest.fn<(message: string, metadata?: unknown) => void>()
  return {
    logger: { warn, error, debug },
    warn,
    error,
    debug,
    /** Every warning code logged so far, in order. */
    codes: (): string[] => warn.mock.calls.map(([code]) => code),
  }
}
