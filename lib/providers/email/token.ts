/**
 * Verification tokens: the raw token travels only in the mail; the adapter stores its hash,
 * keyed with the secret (sha256(token + secret), Auth.js's format, so a database dump holds no
 * usable link).
 */
import { sha256Hex } from "../../crypto/hash.js"
import { randomHex } from "../../crypto/random.js"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { EmailProviderConfig } from "../types.js"

export async function newToken(provider: EmailProviderConfig): Promise<string> {
  const token = provider.generateVerificationToken ? await provider.generateVerificationToken() : randomHex(32)
  if (typeof token !== "string" || token.length < 16) throw new TypeError(`generateVerificationToken of provider "${provider.id}" must return a string of 16 characters or more`)
  return token
}

/** The hash stored for a new token: keyed with the provider's secret, else the first secret. */
export function hashToken(token: string, provider: EmailProviderConfig, config: ResolvedConfig): string {
  return sha256Hex(`${token}${provider.secret ?? config.csrfSecret}`)
}

/**
 * The hashes a link's token may be stored under: the first one is today's; the others were made
 * under another secret of the list (a process still on the previous order during a rotation, or
 * Auth.js, which keys with the whole list).
 */
export function candidateHashes(token: string, provider: EmailProviderConfig, config: ResolvedConfig): string[] {
  if (provider.secret) return [sha256Hex(`${token}${provider.secret}`)]
  return [config.csrfSecret, ...config.csrfSecrets.filter((secret) => secret !== config.csrfSecret)].map((secret) => sha256Hex(`${token}${secret}`))
}
