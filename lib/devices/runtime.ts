/**
 * Per-process session state of one configuration: the revocation cache and the database-session
 * cache, kept current by the revocation messages every process publishes through the store
 * (Redis pub/sub; in-process with the memory store). Made on first use; the subscription starts
 * then, once.
 *
 * Messages (JSON): `{"sid": id}` ends one session (cookie sid, or a database session's id);
 * `{"user": id, "notBefore": ms}` ends the user's sessions created before `notBefore` (0: only
 * drop cached database sessions of the user, some of which were deleted); with `"spare": sid`,
 * all but that one ("sign out everywhere else").
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { DatabaseSessionCache } from "./database-cache.js"
import { RevocationCache } from "./revocation-cache.js"

export type RevocationMessage = { sid: string } | { user: string; notBefore: number; spare?: string }

export interface SessionRuntime {
  readonly revocations: RevocationCache
  readonly databaseSessions: DatabaseSessionCache
}

const runtimes = new WeakMap<ResolvedConfig, SessionRuntime>()

function apply(runtime: SessionRuntime, message: RevocationMessage): void {
  if ("sid" in message) {
    runtime.revocations.revokeSid(message.sid)
    runtime.databaseSessions.dropSid(message.sid)
  } else {
    if (message.spare !== undefined) runtime.revocations.spare(message.spare, message.notBefore)
    if (message.notBefore > 0) runtime.revocations.noteUser(message.user, message.notBefore, Date.now(), message.spare ?? null)
    runtime.databaseSessions.dropUser(message.user)
  }
}

function parse(text: string): RevocationMessage | null {
  try {
    const message = JSON.parse(text) as Record<string, unknown>
    if (typeof message.sid === "string") return { sid: message.sid }
    if (typeof message.user === "string" && typeof message.notBefore === "number") {
      return typeof message.spare === "string" ? { user: message.user, notBefore: message.notBefore, spare: message.spare } : { user: message.user, notBefore: message.notBefore }
    }
  } catch {
    // not one of ours
  }
  return null
}

export function runtimeOf(config: ResolvedConfig): SessionRuntime {
  const known = runtimes.get(config)
  if (known) return known
  const made: SessionRuntime = { revocations: new RevocationCache(config.store.revocationFeed, config.session.cacheSize), databaseSessions: new DatabaseSessionCache(config.session.cacheSize) }
  runtimes.set(config, made)
  config.store
    .subscribe?.((text) => {
      const message = parse(text)
      if (message) apply(made, message)
    })
    .catch((error: unknown) => config.logger.error(error as Error))
  return made
}

/** Applies a revocation on this process at once, then tells the others (a failure is logged: the refresh bound still holds). */
export async function announce(config: ResolvedConfig, message: RevocationMessage): Promise<void> {
  apply(runtimeOf(config), message)
  try {
    await config.store.publish?.(JSON.stringify(message))
  } catch (error) {
    config.logger.error(error as Error)
  }
}
