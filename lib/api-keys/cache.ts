/**
 * This process's cache of API keys (issue #31): key hash -> who calls with it (or that nobody
 * does), so a request with a key costs a hash and a Map lookup, not a database round trip. An
 * entry is trusted for `REVOCATION_REFRESH_MS` (one second): revoking a key or banning its owner
 * takes effect on every process within that bound even without the channel; with it (the store's
 * pub/sub, the one session revocations use) at once: `{"apiKey": hash}` drops a key, the session
 * messages naming a user (`{"user": id}`) drop that user's keys. Bounded: the oldest entries go first.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { REVOCATION_REFRESH_MS } from "../devices/revocation-cache.js"
import { makeRoom } from "../core/bounded-map.js"
import type { ApiKeyCaller } from "./caller.js"

const MAX_ENTRIES = 10_000

/** What a hash was found to be: a caller, or the refusal to repeat (unknown or revoked, an owner banned or gone). */
export type Found = { caller: ApiKeyCaller } | { refusal: "ApiKeyInvalid" | "UserBanned" }

interface Entry {
  found: Found
  at: number
}

export class ApiKeyCache {
  readonly #entries = new Map<string, Entry>()

  get(hash: string, now: number): Found | undefined {
    const entry = this.#entries.get(hash)
    if (!entry) return undefined
    if (now - entry.at < REVOCATION_REFRESH_MS) return entry.found
    this.#entries.delete(hash)
    return undefined
  }

  set(hash: string, found: Found, now: number): void {
    this.#entries.delete(hash)
    makeRoom(this.#entries, MAX_ENTRIES)
    this.#entries.set(hash, { found, at: now })
  }

  drop(hash: string): void {
    this.#entries.delete(hash)
  }

  dropUser(userId: string): void {
    for (const [hash, entry] of this.#entries) {
      if ("caller" in entry.found && entry.found.caller.key.userId === userId) this.#entries.delete(hash)
    }
  }
}

const caches = new WeakMap<ResolvedConfig, ApiKeyCache>()

function parse(text: string): { apiKey: string } | { user: string } | null {
  try {
    const message = JSON.parse(text) as Record<string, unknown>
    if (typeof message.apiKey === "string") return { apiKey: message.apiKey }
    if (typeof message.user === "string") return { user: message.user }
  } catch {
    // not one of ours
  }
  return null
}

/** This configuration's cache; the first call subscribes to the channel. */
export function apiKeyCache(config: ResolvedConfig): ApiKeyCache {
  const known = caches.get(config)
  if (known) return known
  const made = new ApiKeyCache()
  caches.set(config, made)
  config.store
    .subscribe?.((text) => {
      const message = parse(text)
      if (!message) return
      if ("apiKey" in message) made.drop(message.apiKey)
      else made.dropUser(message.user)
    })
    .catch((error: unknown) => config.logger.error(error as Error))
  return made
}

/** Drops a revoked key here at once, then tells the other processes (a failure is logged: the refresh bound still holds). */
export async function announceRevokedKey(config: ResolvedConfig, hash: string): Promise<void> {
  apiKeyCache(config).drop(hash)
  try {
    await config.store.publish?.(JSON.stringify({ apiKey: hash }))
  } catch (error) {
    config.logger.error(error as Error)
  }
}
