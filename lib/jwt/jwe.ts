/**
 * Compact JWE with `alg: "dir"`, on node:crypto. Sealing uses A256CBC-HS512; opening accepts
 * A256CBC-HS512 and A256GCM (tokens from older Auth.js releases). Nothing else is honoured: no
 * key wrapping, no `zip`, no `crit` extensions (RFC 7516 §4.1.11: unknown critical headers must
 * be refused, and we understand none).
 *
 * Why not jose here: jose's WebCrypto path costs ~144 µs per decrypt on this hardware, node:crypto
 * ~12 µs, and this runs on every request that reads a session. Byte compatibility with jose and
 * @auth/core is proven in both directions by the interop tests.
 */
import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from "node:crypto"
import { randomSlice } from "../crypto/random.js"
import type { ContentEncryption, DerivedKey } from "./keys.js"

const B64URL = /^[A-Za-z0-9_-]*$/
/** A protected header of ours is ~130 characters; anything far larger is not ours. */
const MAX_HEADER_LENGTH = 1024

const HEADER_CBC = (kid: string) => JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid })

/** RFC 7518 §5.2.2.1: AES-256-CBC with an HMAC-SHA-512 tag truncated to 32 bytes. */
export function seal(plaintext: string, { key, kid }: DerivedKey): string {
  const protectedHeader = Buffer.from(HEADER_CBC(kid)).toString("base64url")
  const iv = randomSlice(16)
  const cipher = createCipheriv("aes-256-cbc", key.subarray(32, 64), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  const tag = cbcTag(key.subarray(0, 32), aadOf(protectedHeader), iv, ciphertext)
  return `${protectedHeader}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`
}

/** The additional authenticated data of a header: its bytes, and their length in bits (64-bit big-endian). */
interface Aad {
  bytes: Buffer
  bits: Buffer
}

function aadOf(protectedHeader: string): Aad {
  const bytes = Buffer.from(protectedHeader, "ascii")
  const bits = Buffer.alloc(8)
  bits.writeBigUInt64BE(BigInt(bytes.length) * 8n)
  return { bytes, bits }
}

function cbcTag(macKey: Buffer, aad: Aad, iv: Buffer, ciphertext: Buffer): Buffer {
  return createHmac("sha512", macKey).update(aad.bytes).update(iv).update(ciphertext).update(aad.bits).digest().subarray(0, 32)
}

export interface JweHeader {
  alg: "dir"
  enc: ContentEncryption
  kid?: string
}

export interface ParsedJwe {
  header: JweHeader
  protectedHeader: string
  /** The protected header as additional authenticated data (shared by every token with this header: read only). */
  aad: Aad
  iv: Buffer
  ciphertext: Buffer
  tag: Buffer
}

/** Splits and checks the structure; null for anything that is not a JWE we could have made. */
export function parse(compact: string): ParsedJwe | null {
  const parts = compact.split(".")
  if (parts.length !== 5) return null
  const [protectedHeader, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string]
  if (encryptedKey !== "" || protectedHeader.length === 0 || protectedHeader.length > MAX_HEADER_LENGTH) return null
  if (!B64URL.test(protectedHeader) || !B64URL.test(iv) || !B64URL.test(ciphertext) || !B64URL.test(tag)) return null
  const known = knownHeader(protectedHeader)
  if (!known) return null
  const { header, aad } = known
  const parsed = {
    header,
    protectedHeader,
    aad,
    iv: Buffer.from(iv, "base64url"),
    ciphertext: Buffer.from(ciphertext, "base64url"),
    tag: Buffer.from(tag, "base64url"),
  }
  const shape = header.enc === "A256CBC-HS512" ? { iv: 16, tag: 32 } : { iv: 12, tag: 16 }
  if (parsed.iv.length !== shape.iv || parsed.tag.length !== shape.tag) return null
  if (header.enc === "A256CBC-HS512" && (parsed.ciphertext.length === 0 || parsed.ciphertext.length % 16 !== 0)) return null
  return parsed
}

/**
 * Headers already parsed, with their AAD: every session cookie of one secret and name carries the
 * same protected header, so a read that misses the opened-token cache (many active sessions) does
 * not parse it again. Only headers that parsed are kept, few (an app has a handful of keys), the
 * oldest dropped first; the header is frozen, since every token with it shares it.
 */
const MAX_HEADERS = 16
const headers = new Map<string, { header: JweHeader; aad: Aad }>()

function knownHeader(segment: string): { header: JweHeader; aad: Aad } | null {
  const hit = headers.get(segment)
  if (hit) return hit
  const header = parseHeader(segment)
  if (!header) return null
  const known = { header: Object.freeze(header), aad: aadOf(segment) }
  if (headers.size >= MAX_HEADERS) headers.delete(headers.keys().next().value as string)
  headers.set(segment, known)
  return known
}

function parseHeader(segment: string): JweHeader | null {
  let header: unknown
  try {
    header = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"))
  } catch {
    return null
  }
  if (!header || typeof header !== "object" || Array.isArray(header)) return null
  const { alg, enc, kid, zip, crit } = header as Record<string, unknown>
  if (alg !== "dir") return null
  if (enc !== "A256CBC-HS512" && enc !== "A256GCM") return null
  if (zip !== undefined || crit !== undefined) return null
  if (kid !== undefined && typeof kid !== "string") return null
  return { alg, enc, kid }
}

/**
 * Decrypts with one key. The tag is verified before any decryption (RFC 7518 §5.2.2.2), and every
 * failure returns null the same way, so a caller cannot tell a bad tag from bad padding.
 */
export function open(jwe: ParsedJwe, key: Buffer): string | null {
  try {
    if (jwe.header.enc === "A256CBC-HS512") {
      const expected = cbcTag(key.subarray(0, 32), jwe.aad, jwe.iv, jwe.ciphertext)
      if (!timingSafeEqual(expected, jwe.tag)) return null
      const decipher = createDecipheriv("aes-256-cbc", key.subarray(32, 64), jwe.iv)
      return Buffer.concat([decipher.update(jwe.ciphertext), decipher.final()]).toString("utf8")
    }
    const decipher = createDecipheriv("aes-256-gcm", key, jwe.iv)
    decipher.setAAD(jwe.aad.bytes)
    decipher.setAuthTag(jwe.tag)
    return Buffer.concat([decipher.update(jwe.ciphertext), decipher.final()]).toString("utf8")
  } catch {
    return null
  }
}
