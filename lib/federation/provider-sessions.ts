/**
 * Which of our sessions belong to a provider's session, for back-channel logout. At sign-in with
 * an OIDC provider, the session is recorded in the shared store under the provider's session id
 * (`sid` of the ID token) and its subject (`sub`), as session records of a pseudo-user
 * `idp:<providerId>:sid:<sid>` / `idp:<providerId>:sub:<sub>`, each carrying our session id and its
 * owner. A logout token names a `sid` and/or a `sub`; the sessions recorded under it end on every
 * process through the revocable-sessions mechanism (revoked sid + pub/sub; database sessions are
 * deleted).
 */
import { decodeJwt } from "jose"
import type { Account } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { countRevocation } from "../telemetry/counts.js"
import type { StoredSession } from "../shared-store/types.js"
import { CLOCK_TOLERANCE } from "../jwt/codec.js"
import { announce } from "../devices/runtime.js"
import { databaseSessionId } from "../devices/ids.js"

type Binding = StoredSession & { user?: string }

const key = (providerId: string, kind: "sid" | "sub", value: string) => `idp:${providerId}:${kind}:${value}`

/** The provider's `sid` and `sub` from the sign-in's ID token (unverified here: the callback verified it). */
function providerSession(account: Account): { sid?: string; sub?: string } {
  if (typeof account.id_token !== "string") return {}
  try {
    const claims = decodeJwt(account.id_token)
    return { sid: typeof claims.sid === "string" ? claims.sid : undefined, sub: typeof claims.sub === "string" ? claims.sub : undefined }
  } catch {
    return {}
  }
}

/** Records the new session (our `sessionId`, owned by `userId`, ending at `expires` ms) under the provider's sid and sub. */
export async function recordProviderSession(config: ResolvedConfig, account: Account | undefined, sessionId: string | undefined, userId: string | undefined, expires: number): Promise<void> {
  if (!account || account.type !== "oidc" || !sessionId || !config.store.putSession) return
  const { sid, sub } = providerSession(account)
  const now = Date.now()
  const record: Binding = { sid: sessionId, createdAt: now, lastSeenAt: now, expires, userAgent: null, ip: null, ...(userId && { user: userId }) }
  const ttl = Math.max(1, (expires - now) / 1000 + CLOCK_TOLERANCE)
  try {
    if (sid) await config.store.putSession(key(account.provider, "sid", sid), record, ttl)
    if (sub) await config.store.putSession(key(account.provider, "sub", sub), record, ttl)
  } catch (error) {
    config.logger.error(error as Error)
  }
}

/** Ends the sessions recorded under the logout token's `sid` (else its `sub`); returns how many. */
export async function endProviderSessions(config: ResolvedConfig, providerId: string, claims: { sid?: string; sub?: string }): Promise<number> {
  const store = config.store
  const name = claims.sid ? key(providerId, "sid", claims.sid) : key(providerId, "sub", claims.sub as string)
  const bindings = ((await store.listSessions?.(name)) ?? []) as Binding[]
  const now = Date.now()
  let ended = 0
  for (const binding of bindings) {
    if (binding.expires <= now) continue
    if (config.session.strategy === "database") {
      const adapter = config.adapter
      const sessions = binding.user && adapter?.listSessionsByUserId ? await adapter.listSessionsByUserId(binding.user) : []
      for (const session of sessions) {
        if (databaseSessionId(session.sessionToken) === binding.sid) await adapter?.deleteSession?.(session.sessionToken)
      }
    } else {
      await store.revokeSid?.(binding.sid, Math.max(1, Math.ceil((binding.expires - now) / 1000) + CLOCK_TOLERANCE))
      if (binding.user) await store.removeSessions?.(binding.user, [binding.sid])
    }
    await announce(config, { sid: binding.sid })
    countRevocation(config, "backchannel")
    await fireEvent(config, "revokeSession", { userId: binding.user ?? "", scope: "session", sessionId: binding.sid }, { scope: "backchannel", provider: providerId })
    ended++
  }
  await store.removeSessions?.(name, bindings.map((binding) => binding.sid))
  return ended
}
