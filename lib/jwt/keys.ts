/**
 * Key derivation for the session JWE, wire-compatible with Auth.js v5:
 * HKDF-SHA256(ikm = secret, salt, info = "Auth.js Generated Encryption Key (<salt>)"), 64 bytes
 * for A256CBC-HS512 and 32 for A256GCM. `kid` is the RFC 7638 thumbprint of the key as an `oct`
 * JWK, hashed with SHA-(key bits): SHA-512 for the 64-byte key, SHA-256 for the 32-byte one.
 * Derived keys are cached: derivation and thumbprint cost more than the decryption itself.
 */
import { createHash, hkdfSync } from "node:crypto"

export type ContentEncryption = "A256CBC-HS512" | "A256GCM"

export interface DerivedKey {
  key: Buffer
  kid: string
}

const KEY_LENGTH: Record<ContentEncryption, number> = { "A256CBC-HS512": 64, "A256GCM": 32 }

// Bounded: apps have a handful of (secret, salt) pairs; a caller looping over random secrets
// must not grow the process without limit.
const MAX_CACHED = 256
const cache = new Map<string, DerivedKey>()

/**
 * The key asked for last: a process mostly opens one cookie with one secret, so the common call
 * compares three strings (usually the same instances) and builds no cache key.
 */
let last: { enc: ContentEncryption; secret: string; salt: string; derived: DerivedKey } | undefined

export function deriveKey(enc: ContentEncryption, secret: string, salt: string): DerivedKey {
  if (last !== undefined && last.secret === secret && last.salt === salt && last.enc === enc) return last.derived
  const derived = cachedKey(enc, secret, salt)
  last = { enc, secret, salt, derived }
  return derived
}

function cachedKey(enc: ContentEncryption, secret: string, salt: string): DerivedKey {
  const id = JSON.stringify([enc, salt, secret])
  const hit = cache.get(id)
  if (hit) return hit
  const info = `Auth.js Generated Encryption Key (${salt})`
  const key = Buffer.from(hkdfSync("sha256", secret, salt, info, KEY_LENGTH[enc]))
  const derived = { key, kid: thumbprint(key) }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string)
  cache.set(id, derived)
  return derived
}

/** RFC 7638: a digest of the required members of the JWK, in lexicographic order. */
function thumbprint(key: Buffer): string {
  const jwk = `{"k":"${key.toString("base64url")}","kty":"oct"}`
  return createHash(`sha${key.length * 8}`).update(jwk).digest("base64url")
}
