/**
 * When generated keys are made, used and dropped, so that a verifier never meets a key it has not
 * seen (issue #31). Pure functions of the stored keys and the time; key-store.ts acts on them.
 *
 * Each key has `from`, when it starts signing; it signs until the next key's `from`.
 * - The next key is made as soon as the current one starts signing, and starts `every` after it,
 *   but never sooner than `lead` after it was made: a verifier that cached the JWKS (at most
 *   JWKS_MAX_AGE) or took a token (at most `maxAge`) before the change has it already.
 * - A key is published until every token it signed has expired: `maxAge` after the next key took
 *   over, plus a margin for clocks and for processes whose cached view is a little old.
 * So the JWKS has two keys at once, and three around a change.
 */

/** `Cache-Control: max-age` of the JWKS, in seconds. */
export const JWKS_MAX_AGE = 300
/** Seconds allowed for clocks that differ and for a process's cached view of the keys (CACHE_SECONDS). */
export const MARGIN = 60
/** How long a process keeps its view of the stored keys without reading them again, in seconds. */
export const CACHE_SECONDS = 30

export interface ScheduledKey {
  readonly kid: string
  /** When it starts signing (epoch ms). */
  readonly from: number
}

export interface Timing {
  /** Seconds a token lives. */
  readonly maxAge: number
  /** Seconds between keys. */
  readonly every: number
}

/** How long before it signs a new key is published (ms). */
export function leadTime({ maxAge }: Timing): number {
  return (Math.max(maxAge, JWKS_MAX_AGE) + MARGIN) * 1000
}

/** How long a key stays published after the next key took over (ms). */
export function retention({ maxAge }: Timing): number {
  return (maxAge + MARGIN + CACHE_SECONDS) * 1000
}

export interface Plan<K extends ScheduledKey> {
  /** The keys still published, oldest first. */
  readonly keep: readonly K[]
  /** Make a key that starts signing then (epoch ms). */
  readonly create?: number
  /** The key that signs now (undefined: none yet, make one first). */
  readonly signing?: K
  /** When this plan must be looked at again (epoch ms). */
  readonly nextChange: number
}

/** What to do with the stored `keys` at `now`. */
export function plan<K extends ScheduledKey>(keys: readonly K[], now: number, timing: Timing): Plan<K> {
  const sorted = [...keys].sort((a, b) => a.from - b.from)
  const keep = sorted.filter((key, index) => {
    const next = sorted[index + 1]
    return !next || next.from > now || next.from + retention(timing) > now
  })
  const signing = keep.filter((key) => key.from <= now).pop()
  const latest = keep[keep.length - 1]
  const changes: number[] = []
  let create: number | undefined
  if (!signing || !latest) {
    // Nothing signed yet (or the store lost the keys): a key that signs at once.
    create = now
  } else if (latest === signing) {
    // The next key is always there beside the current one, published from the moment it is made.
    create = Math.max(signing.from + timing.every * 1000, now + leadTime(timing))
  }
  // The next key takes over; an old one leaves the JWKS.
  for (const [index, key] of keep.entries()) {
    if (key.from > now) changes.push(key.from)
    const next = keep[index + 1]
    if (next) changes.push(next.from + retention(timing))
  }
  const nextChange = Math.min(now + CACHE_SECONDS * 1000, ...changes.filter((at) => at > now))
  return { keep, create, signing, nextChange }
}

/** Seconds the stored key set is kept: past the retirement of a key made now, with room to spare. */
export function storedFor(timing: Timing): number {
  return Math.ceil((2 * timing.every * 1000 + leadTime(timing) + retention(timing)) / 1000) + 3600
}
