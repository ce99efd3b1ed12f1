/**
 * Verification tokens: the raw token travels only in the mail; the adapter stores its hash,
 * keyed with the secret (sha256(token + secret), Auth.js's format, so a database dump holds no
 * usable link).
 */
import { sha256Hex } from "../../crypto/hash.js"
import { randomHex } from "../../crypto/random.js"
import type { ResolvedConfig } from "../../core/config/resolve.js"
import type { EmailProviderConfig } from "../types.js"

export async function newToken(provider: EmailProviderConfig): Promise<string> {
  const token = provider.generateVerificationToken ? await provider.generateVerificationToken() : randomHex(32)
  if (typeof token !== "string" || token.length < 16) throw new TypeError(`generateVerificationToken of provider "${provider.id}" must return a string of 16 characters or more`)
  return token
}

export function hashToken(token: string, provider: EmailProviderConfig, config: ResolvedConfig): string {
  return sha256Hex(`${token}${provider.secret ?? config.csrfSecret}`)
}
