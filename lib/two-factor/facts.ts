/**
 * How a database session's user signed in (`auth.amr`, issue #16). A session row has no column
 * for it, so it is kept in the shared store under the session id for the session's life: read
 * once when a process first loads the session (then cached with it), written at sign-in.
 * Best effort: a store that is down loses the facts (the session still works, without `amr`).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"

const key = (sid: string) => `facts:amr:${sid}`

export async function recordSessionAmr(config: ResolvedConfig, sid: string, amr: readonly string[], ttlSeconds: number): Promise<void> {
  try {
    await config.store.putValue?.(key(sid), JSON.stringify(amr), Math.max(1, Math.ceil(ttlSeconds)))
  } catch (error) {
    config.logger.error(error as Error)
  }
}

export async function sessionAmr(config: ResolvedConfig, sid: string): Promise<string[] | undefined> {
  try {
    const stored = await config.store.getValue?.(key(sid))
    const parsed: unknown = stored ? JSON.parse(stored) : undefined
    return Array.isArray(parsed) && parsed.every((value) => typeof value === "string") ? parsed : undefined
  } catch (error) {
    config.logger.error(error as Error)
    return undefined
  }
}
