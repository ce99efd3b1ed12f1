/**
 * State that several processes of one app must share: rate-limit counters and the passkey
 * challenges already used. `store` in the configuration; this process's memory by default,
 * `RedisStore` (`gatehouse/stores/redis`) to share it.
 */
export interface StateStore {
  /**
   * Counts one hit on `key` in a fixed window of `windowSeconds` that starts with the key's first
   * hit. Returns the hits counted in the current window and when it ends (epoch milliseconds).
   */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetAt: number }>
  /** Forgets `key`'s count. */
  reset(key: string): Promise<void>
  /** Stores `key` for `ttlSeconds` unless it is there: true when this call stored it (the first use). */
  claim(key: string, ttlSeconds: number): Promise<boolean>
}
