/**
 * The HMAC keys ALTCHA challenges are signed with (issue #33): derived from the app's secrets with
 * HKDF under a label of their own, so the signing key is never the raw secret and a key found
 * here opens nothing else. The first secret signs; every secret verifies, so a challenge issued
 * just before a secret rotation is still accepted until it expires.
 */
import { hkdfSync } from "node:crypto"

const LABEL = "gatehouse bot-protection altcha challenge signature"

// Bounded like the session keys (lib/jwt/keys.ts): apps have a handful of secrets.
const MAX_CACHED = 64
const cache = new Map<string, string>()

/** The signing key derived from one secret, as the hex string altcha-lib takes. */
export function signingKey(secret: string): string {
  const hit = cache.get(secret)
  if (hit) return hit
  const key = Buffer.from(hkdfSync("sha256", secret, "", LABEL, 32)).toString("hex")
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string)
  cache.set(secret, key)
  return key
}

/** The key new challenges are signed with. */
export const currentKey = (secrets: readonly string[]): string => signingKey(secrets[0] as string)

/** Every key a challenge may have been signed with, newest first. */
export const acceptedKeys = (secrets: readonly string[]): string[] => secrets.map(signingKey)
