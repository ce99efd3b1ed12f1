/**
 * The session facts that are Gatehouse's, not the app's (issue #24): how and when the user signed
 * in (`amr`, `authTime`), the session id (`sid`), the pending state (`pending`) and an admin's
 * impersonation (`impersonatedBy`, `impersonationEnds`, issue #30). What a `jwt` or
 * `session` callback returns never changes them, nor does a session update: a common `jwt`
 * callback merges the browser's update data into the token (`{ ...token, ...session }`), and step-up
 * (`requireAuth({ maxAge })`) must not take the browser's word for when it signed in. After each
 * callback the facts are put back as Gatehouse recorded them, and one it never recorded is removed.
 * Only the callback and update paths pay for this; the plain cookie read never runs it.
 */

/** In the token (cookie strategy). */
export const TOKEN_FACTS = ["amr", "authTime", "sid", "pending", "impersonatedBy", "impersonationEnds"] as const
/** In the session the app sees (`req.auth`, `GET session`, what `requireAuth` judges). */
export const SESSION_FACTS = ["amr", "authTime", "impersonatedBy"] as const

type Facts = readonly string[]

/**
 * `returned` with `recorded`'s value for each of `keys` (absent when `recorded` lacks it): the same
 * object when nothing differs, else a copy. Anything else the callback returned stays.
 */
export function keepReservedFacts<T extends object>(returned: T, recorded: object, keys: Facts): T {
  const from = returned as Record<string, unknown>
  const source = recorded as Record<string, unknown>
  let kept: Record<string, unknown> | undefined
  for (const key of keys) {
    const value = source[key]
    if (from[key] === value && (value !== undefined || !(key in from))) continue
    kept ??= { ...from }
    if (value === undefined) delete kept[key]
    else kept[key] = value
  }
  return (kept ?? returned) as T
}

/** The facts of `from` as they are now (an `amr` list and an `impersonatedBy` of their own), to restore after a callback that might change them in place. */
export function snapshotFacts(from: object, keys: Facts): Record<string, unknown> {
  const source = from as Record<string, unknown>
  const snapshot: Record<string, unknown> = {}
  for (const key of keys) {
    const value = source[key]
    if (value === undefined) continue
    // Lists and objects copied, so a callback changing them in place changes no recorded fact.
    snapshot[key] = Array.isArray(value) ? [...(value as unknown[])] : value && typeof value === "object" ? { ...value } : value
  }
  return snapshot
}
