/**
 * One refresh per refresh token, however many callers ask at once:
 * - in this process, concurrent callers share one promise (keyed by provider and refresh token);
 * - across processes, a lock in the shared store (a counter's first hit, Redis `INCR`) elects one refresher;
 *   the others poll the store for its result, which it leaves there (sealed with the secret) for
 *   `RESULT_TTL_SECONDS`, so a request that still carries the old refresh token gets the new
 *   tokens instead of sending the spent one again.
 * A provider that does not rotate refresh tokens answers the next refresh under the same key: a
 * result whose access token has expired in its turn is then no answer (the caller refreshes
 * again), and the refresher releases the lock once its result is left, so that next refresh can
 * run (issue #24).
 * A refused refresh is left as a result too (every waiter gets `RefreshTokenError`). A failure
 * whose request may have reached the provider (refresh-grant.ts: `refreshMaybeSent`) is left as a
 * result for `DOUBT_TTL_SECONDS`, so the callers waiting on it, here or in another process, get
 * `TokenRefreshFailed` instead of sending the same refresh token again at once. A failure before
 * anything was sent releases the lock and leaves nothing, so the next call tries again.
 */
import { createHash } from "node:crypto"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { RefreshTokenError, TokenRefreshFailed } from "./errors.js"
import { refreshMaybeSent } from "./refresh-grant.js"
import { openToken, sealToken } from "../jwt/codec.js"
import { outboundLimits } from "../outbound/options.js"
import type { OAuthProviderConfig } from "../providers/types.js"
import { REFRESH_TOKEN_ERROR, type ProviderTokens } from "./provider-tokens.js"

/** How long the result of a refresh stays readable by other callers holding the old refresh token. */
export const RESULT_TTL_SECONDS = 120
/** How long a refresh that may have reached the provider, unanswered, keeps other callers from resending its refresh token. */
export const DOUBT_TTL_SECONDS = 5
const FAILED = "TokenRefreshFailed"
const SALT = "gatehouse.refreshed-provider-tokens"
const POLL_MS = 50

type Outcome = { tokens: ProviderTokens } | { error: typeof REFRESH_TOKEN_ERROR | typeof FAILED }

const inflight = new WeakMap<ResolvedConfig, Map<string, Promise<ProviderTokens>>>()

function keyOf(provider: OAuthProviderConfig, refreshToken: string): string {
  return createHash("sha256").update(`${provider.id}\0${refreshToken}`).digest("base64url")
}

async function readOutcome(config: ResolvedConfig, key: string): Promise<Outcome | null> {
  const sealed = await config.store.getValue?.(`tokens:result:${key}`)
  if (!sealed) return null
  const payload = openToken(sealed, config.secrets, SALT, undefined, 0)?.payload
  if (payload?.error === REFRESH_TOKEN_ERROR || payload?.error === FAILED) return { error: payload.error }
  return payload?.tokens && typeof payload.tokens === "object" ? { tokens: payload.tokens as ProviderTokens } : null
}

async function writeOutcome(config: ResolvedConfig, key: string, outcome: Outcome, ttl = RESULT_TTL_SECONDS): Promise<void> {
  const sealed = sealToken({ ...outcome }, config.secrets[0] as string, SALT, ttl)
  await config.store.putValue?.(`tokens:result:${key}`, sealed, ttl)
}

/**
 * The outcome, unless it is tokens whose access token has expired under a refresh token the
 * provider did not rotate (`refreshToken`, the one the caller holds): that calls for a new refresh,
 * not the old answer. (Rotated, the caller's refresh token is spent: the result stays its answer.)
 */
function current(outcome: Outcome | null, refreshToken: string): Outcome | null {
  if (!outcome || !("tokens" in outcome)) return outcome
  const { expires_at: expiresAt, refresh_token: next } = outcome.tokens
  const expired = typeof expiresAt === "number" && expiresAt <= Math.floor(Date.now() / 1000)
  return expired && next === refreshToken ? null : outcome
}

function settle(outcome: Outcome, provider: OAuthProviderConfig): ProviderTokens {
  if ("tokens" in outcome) return outcome.tokens
  if (outcome.error === FAILED) {
    throw new TokenRefreshFailed(`Refreshing the "${provider.id}" access token failed a moment ago, possibly after the provider received the refresh token: try again later`)
  }
  throw new RefreshTokenError(`Provider "${provider.id}" refused this refresh token earlier: the user must sign in with it again`)
}

/**
 * The lock: the first hit on its counter in a window as long as a refresh can take (Redis `INCR`
 * is atomic across processes); `reset` releases it. While the shared store is unreachable, the
 * guarded store counts in this process's memory: the lock then holds within this process only.
 */
async function locked(config: ResolvedConfig, lock: string, seconds: number): Promise<boolean> {
  return (await config.store.hit(lock, seconds)).count === 1
}

async function acrossProcesses(
  config: ResolvedConfig,
  provider: OAuthProviderConfig,
  refreshToken: string,
  refresh: () => Promise<ProviderTokens>,
  persist: (tokens: ProviderTokens) => Promise<void>,
): Promise<ProviderTokens> {
  const key = keyOf(provider, refreshToken)
  const lock = `tokens:lock:${key}`
  // Two tries of the provider's timeout, the pause between them, and a margin.
  const holdSeconds = Math.ceil((2 * outboundLimits(provider.outbound).timeout + 2000) / 1000)
  const deadline = Date.now() + holdSeconds * 1000
  for (;;) {
    const known = current(await readOutcome(config, key), refreshToken)
    if (known) return settle(known, provider)
    if (await locked(config, lock, holdSeconds)) {
      // A refresher that just failed left its outcome before releasing the lock: read it again.
      const left = current(await readOutcome(config, key), refreshToken)
      if (!left) break
      await config.store.reset(lock)
      return settle(left, provider)
    }
    if (Date.now() > deadline) throw new TokenRefreshFailed(`Another process is refreshing the "${provider.id}" access token and has not finished`)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  try {
    const tokens = await refresh()
    // Published before it is stored: should storing fail, the spent refresh token's successor is
    // still found (for RESULT_TTL_SECONDS) instead of being asked for again.
    await writeOutcome(config, key, { tokens })
    await persist(tokens)
    // Not rotated: the same key is refreshed again when this access token expires.
    if (tokens.refresh_token === refreshToken) await config.store.reset(lock)
    return tokens
  } catch (error) {
    if (error instanceof RefreshTokenError) await writeOutcome(config, key, { error: REFRESH_TOKEN_ERROR })
    else if (!(await readOutcome(config, key))) {
      // Left before the lock is released: a caller that takes the lock next reads it first.
      if (refreshMaybeSent(error)) await writeOutcome(config, key, { error: FAILED }, DOUBT_TTL_SECONDS)
      await config.store.reset(lock)
    }
    throw error
  }
}

/** The fresh tokens for `refreshToken` of `provider`: refreshed once, whoever asks. */
export function refreshOnce(
  config: ResolvedConfig,
  provider: OAuthProviderConfig,
  refreshToken: string,
  refresh: () => Promise<ProviderTokens>,
  persist: (tokens: ProviderTokens) => Promise<void>,
): Promise<ProviderTokens> {
  const key = keyOf(provider, refreshToken)
  let map = inflight.get(config)
  if (!map) inflight.set(config, (map = new Map()))
  const running = map.get(key)
  if (running) return running
  const flight = acrossProcesses(config, provider, refreshToken, refresh, persist).finally(() => map.delete(key))
  map.set(key, flight)
  return flight
}
