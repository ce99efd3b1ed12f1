/**
 * What a session tells of an impersonation (issue #30): `auth.impersonatedBy` = `{ id, email, name,
 * ends }` (the admin, and when the impersonation ends, ISO 8601). A cookie session carries it as the
 * reserved claims `impersonatedBy` and `impersonationEnds` (epoch seconds: no callback or update
 * changes them, lib/session/reserved-facts.ts); a database session keeps it in the shared store
 * under the session id, read once when a process loads the session (then cached with it), as the
 * sign-in's `amr` is. Past `ends` the session reads as signed out, whatever its own expiry.
 * This file imports nothing of the admin tools: the session code reads it on every read.
 */
import type { ResolvedConfig } from "../../core/config/resolved.js"

export interface Impersonator {
  /** The admin's user id. */
  id: string
  email: string | null
  name: string | null
}

/** `auth.impersonatedBy`. */
export interface ImpersonatedBy extends Impersonator {
  /** When the impersonation ends (ISO 8601). */
  ends: string
}

/** A database session's impersonation, as stored and cached. */
export interface StoredImpersonation {
  by: Impersonator
  /** Epoch seconds. */
  ends: number
}

const key = (sid: string) => `facts:impersonation:${sid}`

export function impersonatedBy(by: Impersonator, ends: number): ImpersonatedBy {
  return { id: by.id, email: by.email, name: by.name, ends: new Date(ends * 1000).toISOString() }
}

/** The cookie claims' impersonation, when well formed (undefined otherwise: a plain session). */
export function claimsImpersonation(claims: object): StoredImpersonation | undefined {
  const { impersonatedBy: given, impersonationEnds: ends } = claims as { impersonatedBy?: unknown; impersonationEnds?: unknown }
  const by = given as Impersonator | undefined
  if (!by || typeof by !== "object" || typeof by.id !== "string" || typeof ends !== "number") return undefined
  return { by: { id: by.id, email: by.email ?? null, name: by.name ?? null }, ends }
}

export async function recordImpersonation(config: ResolvedConfig, sid: string, value: StoredImpersonation, ttlSeconds: number): Promise<void> {
  await config.store.putValue?.(key(sid), JSON.stringify(value), Math.max(1, Math.ceil(ttlSeconds)))
}

/** Only when impersonation is on: other apps pay no store read for it. */
export async function storedImpersonation(config: ResolvedConfig, sid: string): Promise<StoredImpersonation | undefined> {
  if (!config.admin?.impersonation) return undefined
  try {
    const stored = await config.store.getValue?.(key(sid))
    const parsed: unknown = stored ? JSON.parse(stored) : undefined
    return parsed && typeof parsed === "object" ? claimsImpersonation({ impersonatedBy: (parsed as StoredImpersonation).by, impersonationEnds: (parsed as StoredImpersonation).ends }) : undefined
  } catch (error) {
    config.logger.error(error as Error)
    return undefined
  }
}
