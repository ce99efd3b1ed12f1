/** How long a cookie session of a configuration can still live: how long its revocations are kept. */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { CLOCK_TOLERANCE } from "../jwt/codec.js"

/** The longest a session of this configuration can live from now, in seconds (how long revocations are kept). */
export function longestSessionSeconds(config: ResolvedConfig, now = Date.now()): number {
  const { absoluteExpires, maxAge, tokenMaxAge } = config.session
  if (absoluteExpires) return Math.max(1, Math.ceil((absoluteExpires.getTime() - now) / 1000) + CLOCK_TOLERANCE)
  return Math.max(maxAge, tokenMaxAge) + CLOCK_TOLERANCE
}
