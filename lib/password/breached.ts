/**
 * Breached-password checks: any `(password) => boolean | Promise<boolean>` (true: refuse it).
 * Two come built in:
 * - `haveIBeenPwned()`: the k-anonymity range query of the Pwned Passwords API (or a server
 *   speaking the same protocol): only the first 5 hex characters of the password's SHA-1 leave the
 *   process; the answer lists the suffixes with that prefix (`SUFFIX:COUNT` lines, padded with
 *   zero-count entries when `Add-Padding` is asked for) and the match happens here.
 * - `commonPasswords(fileOrList)`: an offline list the app provides (one password a line).
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import type { Awaitable } from "../types.js"

export type PasswordCheck = (password: string) => Awaitable<boolean>

export interface HaveIBeenPwnedOptions {
  /** The API's base URL (the range query is `<url>/range/<prefix>`). Default `https://api.pwnedpasswords.com`. */
  url?: string
  /** Refuse a password seen at least this many times. Default 1. */
  minCount?: number
  /** Milliseconds before the query is abandoned (the password is then accepted; the failure is logged). Default 3000. */
  timeout?: number
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch
}

export function haveIBeenPwned(options: HaveIBeenPwnedOptions = {}): PasswordCheck {
  const base = (options.url ?? "https://api.pwnedpasswords.com").replace(/\/+$/, "")
  const minCount = options.minCount ?? 1
  const timeout = options.timeout ?? 3000
  return async (password) => {
    const digest = createHash("sha1").update(password, "utf8").digest("hex").toUpperCase()
    const prefix = digest.slice(0, 5)
    const suffix = digest.slice(5)
    const doFetch = options.fetch ?? fetch
    const response = await doFetch(`${base}/range/${prefix}`, { headers: { "Add-Padding": "true", Accept: "text/plain" }, signal: AbortSignal.timeout(timeout) })
    if (!response.ok) throw new Error(`The range query answered ${response.status}`)
    const body = await response.text()
    for (const line of body.split(/\r?\n/)) {
      const [candidate, count] = line.trim().split(":")
      if (candidate?.toUpperCase() === suffix) return Number(count) >= minCount
    }
    return false
  }
}

/**
 * A check against the app's own list of common passwords: a file path (UTF-8, one a line, read
 * once, now) or the list itself. Compared without regard to case, after NFKC.
 */
export function commonPasswords(source: string | readonly string[]): PasswordCheck {
  const lines = typeof source === "string" ? readFileSync(source, "utf8").split(/\r?\n/) : source
  const known = new Set(lines.map((line) => line.normalize("NFKC").trim().toLowerCase()).filter(Boolean))
  return (password) => known.has(password.normalize("NFKC").trim().toLowerCase())
}
