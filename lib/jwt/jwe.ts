/**
 * Compact JWE with `alg: "dir"`, on node:crypto. Sealing uses A256CBC-HS512; opening accepts
 * A256CBC-HS512 and A256GCM (tokens from older Auth.js releases). Nothing else is honoured: no
 * key wrapping, no `zip`, no `crit` extensions (RFC 7516 §4.1.11: unknown critical headers must
 * be refused, and we understand none).
 *
 * Why not jose here: jose's WebCrypto path costs ~144 µs per decrypt on this hardware, node:crypto
 * ~12 µs, and this runs on every request that reads a session. Opening A256CBC-HS512 makes no
 * node:crypto object per token (./cbc-hs512.ts). Byte compatibility with jose and
 * @auth/core is proven in both directions by the interop tests.
 */
import { createCipheriv, createDecipheriv, timingSafeEqual } from "node:crypto"
import { randomSlice } from "../crypto/random.js"
import { cbcKey } from "./cbc-hs512.js"
import type { ContentEncryption, DerivedKey } from "./keys.js"

/**
 * The whole compact form in one pass: a protected header of 1 to 1024 base64url characters (ours
 * is ~130; anything far larger is not ours), an empty encrypted key (`dir`), then the IV,
 * ciphertext and tag, base64url each. Exactly five parts, as no part may hold a dot.
 */
const COMPACT = /^[A-Za-z0-9_-]{1,1024}\.\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/

const HEADER_CBC = (kid: string) => JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid })

/** RFC 7518 §5.2.2.1: AES-256-CBC with an HMAC-SHA-512 tag truncated to 32 bytes. */
export function seal(plaintext: string, { key, kid }: DerivedKey): string {
  const protectedHeader = Buffer.from(HEADER_CBC(kid)).toString("base64url")
  const iv = randomSlice(16)
  const cipher = createCipheriv("aes-256-cbc", key.subarray(32, 64), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  const aad = aadOf(protectedHeader)
  const tag = cbcKey(key).tag([aad.bytes, iv, ciphertext, aad.bits])
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
  if (!COMPACT.test(compact)) return null
  // The pattern placed the dots: the header ends at the first, the IV starts after the second.
  const headerEnd = compact.indexOf(".")
  const ivEnd = compact.indexOf(".", headerEnd + 2)
  const ciphertextEnd = compact.indexOf(".", ivEnd + 1)
  const known = knownHeader(compact, headerEnd)
  if (!known) return null
  const { header, segment: protectedHeader, aad } = known
  const cbc = header.enc === "A256CBC-HS512"
  const iv = Buffer.from(compact.slice(headerEnd + 2, ivEnd), "base64url")
  if (iv.length !== (cbc ? 16 : 12)) return null
  const tag = Buffer.from(compact.slice(ciphertextEnd + 1), "base64url")
  if (tag.length !== (cbc ? 32 : 16)) return null
  const ciphertext = Buffer.from(compact.slice(ivEnd + 1, ciphertextEnd), "base64url")
  if (cbc && (ciphertext.length === 0 || ciphertext.length % 16 !== 0)) return null
  return { header, protectedHeader, aad, iv, ciphertext, tag }
}

/**
 * Headers already parsed, with their AAD: every session cookie of one secret and name carries the
 * same protected header, so a read that misses the opened-token cache (many active sessions) does
 * not parse it again. Only headers that parsed are kept, few (an app has a handful of keys), the
 * oldest dropped first; the header is frozen, since every token with it shares it.
 */
const MAX_HEADERS = 16
interface KnownHeader {
  segment: string
  header: JweHeader
  aad: Aad
}
const headers = new Map<string, KnownHeader>()
/** The header found last: the common case, compared in place (no substring to cut, no hash to compute). */
let lastHeader: KnownHeader | undefined

/** The header of `compact`, its first `length` characters (already checked to be base64url). */
function knownHeader(compact: string, length: number): KnownHeader | null {
  if (lastHeader !== undefined && lastHeader.segment.length === length && compact.startsWith(lastHeader.segment)) return lastHeader
  const segment = compact.slice(0, length)
  let known = headers.get(segment)
  if (!known) {
    const header = parseHeader(segment)
    if (!header) return null
    known = { segment, header: Object.freeze(header), aad: aadOf(segment) }
    if (headers.size >= MAX_HEADERS) headers.delete(headers.keys().next().value as string)
    headers.set(segment, known)
  }
  lastHeader = known
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
      const cbc = cbcKey(key)
      if (!timingSafeEqual(cbc.tag([jwe.aad.bytes, jwe.iv, jwe.ciphertext, jwe.aad.bits]), jwe.tag)) return null
      const padded = cbc.decrypt(jwe.iv, jwe.ciphertext)
      return padded && unpadded(padded)
    }
    const decipher = createDecipheriv("aes-256-gcm", key, jwe.iv)
    decipher.setAAD(jwe.aad.bytes)
    decipher.setAuthTag(jwe.tag)
    return Buffer.concat([decipher.update(jwe.ciphertext), decipher.final()]).toString("utf8")
  } catch {
    return null
  }
}

/**
 * PKCS #7 (RFC 5652 §6.3): the last byte says how many bytes of padding (1 to 16), each of that
 * value. Checked here rather than by a decipher's `final()`; the tag has already proved the
 * ciphertext ours, so how a bad padding is noticed tells an attacker nothing.
 */
function unpadded(padded: Buffer): string | null {
  const length = padded.length
  const count = length === 0 ? 0 : (padded[length - 1] as number)
  if (count < 1 || count > 16 || count > length) return null
  for (let i = length - count; i < length - 1; i++) if (padded[i] !== count) return null
  return padded.toString("utf8", 0, length - count)
}
