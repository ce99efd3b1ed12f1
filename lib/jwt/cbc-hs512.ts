/**
 * The two primitives of A256CBC-HS512 (RFC 7518 §5.2) for a session read, computed without a new
 * node:crypto object per token. A cookie that misses the opened-token cache (more active sessions
 * than `session.cacheSize`) used to build an `Hmac` and a `Decipheriv` for every request: native
 * objects that cost more to create and collect than the SHA-512 and AES work itself.
 *
 * - The tag is HMAC-SHA-512 as RFC 2104 defines it, H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)), with two
 *   one-shot `crypto.hash` calls: the 32-byte MAC key is shorter than SHA-512's 128-byte block, so
 *   it is zero-padded, and both padded keys are worked out once per key.
 * - AES-256-CBC decryption is, by its definition (NIST SP 800-38A §6.2), P₁ = D(C₁) ⊕ IV and
 *   Pᵢ = D(Cᵢ) ⊕ Cᵢ₋₁. The block decryption D is node:crypto's AES-256 in ECB mode, one decipher
 *   per key, kept: with padding off, ECB keeps no state between calls given whole blocks, which
 *   is all it is ever given (the caller checks the length; anything else is refused here too).
 *
 * Both are proven equal to `createHmac` and `createDecipheriv` on random inputs
 * (__tests__/unit/jwt/cbc-hs512.test.ts), and the interop tests open jose's and Auth.js's tokens
 * with them. Sealing (a sign-in, not a read) uses the same tag function.
 */
import { createDecipheriv, hash, type Decipher } from "node:crypto"

const BLOCK = 128
/** SHA-512's output, which the inner hash appends to the outer padded key. */
const DIGEST = 64

export interface CbcKey {
  /** HMAC-SHA-512 of the parts, in order, truncated to 32 bytes. */
  tag(parts: readonly Buffer[]): Buffer
  /** AES-256-CBC decryption of whole blocks, padding left on; null when `ciphertext` is not whole blocks. */
  decrypt(iv: Buffer, ciphertext: Buffer): Buffer | null
}

/** Per 64-byte key (the cached derived key: one instance per secret and salt). */
const keys = new WeakMap<Buffer, CbcKey>()

export function cbcKey(key: Buffer): CbcKey {
  let known = keys.get(key)
  if (!known) {
    known = makeKey(key)
    keys.set(key, known)
  }
  return known
}

/** The inner hash's input is built here: one buffer, grown when a token is larger than any before. */
let scratch = Buffer.alloc(2048)

function makeKey(key: Buffer): CbcKey {
  if (key.length !== 64) throw new RangeError("A256CBC-HS512 needs a 64-byte key")
  const inner = Buffer.alloc(BLOCK, 0x36)
  const outer = Buffer.alloc(BLOCK + DIGEST)
  outer.fill(0x5c, 0, BLOCK)
  for (let i = 0; i < 32; i++) {
    inner[i] = (inner[i] as number) ^ (key[i] as number)
    outer[i] = (outer[i] as number) ^ (key[i] as number)
  }
  let blocks: Decipher | undefined

  return {
    tag(parts) {
      let length = BLOCK
      for (const part of parts) length += part.length
      if (length > scratch.length) scratch = Buffer.alloc(Math.max(length, scratch.length * 2))
      inner.copy(scratch, 0)
      let at = BLOCK
      for (const part of parts) at += part.copy(scratch, at)
      hash("sha512", scratch.subarray(0, length), "buffer").copy(outer, BLOCK)
      return hash("sha512", outer, "buffer").subarray(0, 32)
    },
    decrypt(iv, ciphertext) {
      if (iv.length !== 16 || ciphertext.length === 0 || ciphertext.length % 16 !== 0) return null
      blocks ??= createDecipheriv("aes-256-ecb", key.subarray(32, 64), null).setAutoPadding(false)
      let plain: Buffer
      try {
        plain = blocks.update(ciphertext)
      } catch {
        // Never expected with whole blocks; a decipher in an unknown state is not used again.
        blocks = undefined
        return null
      }
      if (plain.length !== ciphertext.length) {
        blocks = undefined
        return null
      }
      for (let i = 0; i < 16; i++) plain[i] = (plain[i] as number) ^ (iv[i] as number)
      for (let i = 16; i < plain.length; i++) plain[i] = (plain[i] as number) ^ (ciphertext[i - 16] as number)
      return plain
    },
  }
}
