/**
 * openid-client wraps what a fetch throws in its own error; the named outbound errors (timeout,
 * body cap, refused redirect) are looked for along the `cause` chain so they reach the user as
 * themselves, not as a generic OAuth failure.
 */
import { ProviderRedirectRefused, ProviderResponseTooLarge, ProviderTimeout, type AuthError } from "../errors.js"

export function outboundFailure(error: unknown): AuthError | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current; depth++) {
    if (current instanceof ProviderTimeout || current instanceof ProviderResponseTooLarge || current instanceof ProviderRedirectRefused) return current
    const cause: unknown = (current as { cause?: unknown }).cause
    current = cause && typeof cause === "object" && "err" in cause && !(cause instanceof Error) ? (cause as { err: unknown }).err : cause
  }
  return undefined
}
