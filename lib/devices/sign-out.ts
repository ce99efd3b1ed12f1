/**
 * Sign-out of a cookie session: its `sid` is revoked until the cookie would have expired, so a
 * copy of the cookie reads as signed out everywhere (a cookie made before sids cannot be named:
 * it is only cleared, and stays valid until it expires, as before). A store that fails does not
 * fail the sign-out: this process refuses the cookie at once, and the store keeps the revocation
 * and writes it when the shared store answers again (`RevocationPending`, not logged again here:
 * the store logs the outage); any other failure is logged.
 */
import type { JWT } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { RevocationPending } from "../errors.js"
import { CLOCK_TOLERANCE, nowSeconds } from "../jwt/codec.js"
import { tokenIdentity } from "./check.js"
import { announce } from "./runtime.js"

export async function endSignedOutSession(config: ResolvedConfig, token: JWT): Promise<void> {
  const { sid, userId } = tokenIdentity(token)
  if (!sid) return
  const ttl = Math.max(1, (typeof token.exp === "number" ? token.exp - nowSeconds() : config.session.maxAge) + CLOCK_TOLERANCE)
  try {
    await config.store.revokeSid?.(sid, ttl)
  } catch (error) {
    // The shared store did not take it: the sign-out still happens (the cookie is cleared, and
    // this process knows); the revocation is kept and retried until written.
    if (!(error instanceof RevocationPending)) config.logger.error(error as Error)
  }
  await announce(config, { sid })
  if (userId) await config.store.removeSessions?.(userId, [sid])?.catch((error: unknown) => config.logger.error(error as Error))
}
