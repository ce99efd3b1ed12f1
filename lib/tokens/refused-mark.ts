/**
 * "A provider refused this user's refresh token" for database sessions (issue #17): every read of
 * the user's database sessions carries `error: "RefreshTokenError"` until the user signs in with
 * that provider again (or the account gets fresh tokens through Gatehouse).
 *
 * The lasting record is the account row: a refused refresh clears its refresh token
 * (`updateAccountTokens`), so `getAccessToken` keeps answering `RefreshTokenError` for it. The
 * session read does not query accounts: it finds the fact in the shared store, under the user id
 * (a list of provider ids), read together with the session's `amr` when a process first loads the
 * session (then cached with it: no round trip per request). Marking and clearing announce the
 * user on the revocation channel, so every process drops its cached sessions of the user and
 * reads the fact again. Best effort like the `amr` facts: a store that lost the fact shows no
 * error until the next `getAccessToken` for that provider, which finds the refresh token gone and
 * marks the user again.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { longestSessionSeconds } from "../devices/session-life.js"
import { announce } from "../devices/runtime.js"

const key = (userId: string) => `tokens:refused:${userId}`

/** True when the configuration has a provider whose refresh could be refused (the read skips the lookup otherwise). */
export function refreshCanBeRefused(config: ResolvedConfig): boolean {
  return config.session.strategy === "database" && config.providers.list.some((provider) => provider.type === "oauth" || provider.type === "oidc")
}

/** The providers that refused the user's refresh token (empty when none, or when the store failed: logged). */
export async function refusedProviders(config: ResolvedConfig, userId: string): Promise<string[]> {
  try {
    const stored = await config.store.getValue?.(key(userId))
    const parsed: unknown = stored ? JSON.parse(stored) : undefined
    return Array.isArray(parsed) ? parsed.filter((value): value is string => typeof value === "string") : []
  } catch (error) {
    config.logger.error(error as Error)
    return []
  }
}

/** Stores the list (for as long as a session can live from now) and tells every process. */
async function write(config: ResolvedConfig, userId: string, providers: readonly string[], ttlSeconds = longestSessionSeconds(config)): Promise<void> {
  try {
    await config.store.putValue?.(key(userId), JSON.stringify(providers), providers.length ? Math.max(1, Math.ceil(ttlSeconds)) : 1)
  } catch (error) {
    config.logger.error(error as Error)
  }
  await announce(config, { user: userId, notBefore: 0 })
}

/** Records that `providerId` refused the user's refresh token (nothing happens when it is already recorded). */
export async function markRefused(config: ResolvedConfig, userId: string, providerId: string): Promise<void> {
  const known = await refusedProviders(config, userId)
  if (!known.includes(providerId)) await write(config, userId, [...known, providerId])
}

/** Forgets that `providerId` refused (a new sign-in with it, or fresh tokens); nothing happens when it was not recorded. */
export async function clearRefused(config: ResolvedConfig, userId: string, providerId: string): Promise<void> {
  const known = await refusedProviders(config, userId)
  if (known.includes(providerId)) await write(config, userId, known.filter((id) => id !== providerId))
}

/** Keeps the user's recorded fact (if any is still there) as long as a session being extended now (`ttlSeconds`). */
export async function keepRefused(config: ResolvedConfig, userId: string, ttlSeconds: number): Promise<void> {
  const known = await refusedProviders(config, userId)
  if (!known.length) return
  try {
    await config.store.putValue?.(key(userId), JSON.stringify(known), Math.max(1, Math.ceil(ttlSeconds)))
  } catch (error) {
    config.logger.error(error as Error)
  }
}
