/**
 * The revocation check of a cookie session read: is the token's `sid` revoked, or was the session
 * created before its user's "not before" time (and not spared from it)? Answered from this process's cache when it can
 * (no store round trip), from the shared store otherwise (one round trip, then cached).
 */
import type { JWT } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { revokedBy } from "../shared-store/types.js"
import { sessionIdTime } from "./ids.js"
import { runtimeOf } from "./runtime.js"

/** When the token's session started (ms): from its `sid`, else (a cookie made before sids) its `iat`. */
export function sessionCreatedAt(token: JWT): number {
  const started = typeof token.sid === "string" ? sessionIdTime(token.sid) : undefined
  if (started !== undefined) return started
  return typeof token.iat === "number" ? token.iat * 1000 : 0
}

export function tokenIdentity(token: JWT): { sid: string | undefined; userId: string | undefined } {
  return { sid: typeof token.sid === "string" ? token.sid : undefined, userId: typeof token.sub === "string" ? token.sub : undefined }
}

/** True when the session in `token` was revoked. Synchronous (a boolean) when the cache knows. `createdAt`: as `sessionCreatedAt(token)`. */
export function cookieSessionRevoked(config: ResolvedConfig, token: JWT, createdAt = sessionCreatedAt(token)): boolean | Promise<boolean> {
  // As tokenIdentity, without the object (every request comes here).
  const sid = typeof token.sid === "string" ? token.sid : undefined
  const userId = typeof token.sub === "string" ? token.sub : undefined
  if (sid === undefined && userId === undefined) return false
  const now = Date.now()
  const runtime = runtimeOf(config)
  const known = runtime.revocations.check(sid, userId, createdAt, now)
  if (known !== undefined) return known
  const asked = config.store.revocation?.(sid, userId)
  if (!asked) return false
  return asked.then((state) => {
    runtime.revocations.learn(sid, userId, state, now)
    return revokedBy(state, createdAt)
  })
}
