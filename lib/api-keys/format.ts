/**
 * What an API key looks like (issue #31): `<prefix><40 random characters><6 checksum characters>`,
 * all base62 after the prefix (`gk_` + 46 characters by default, about 238 random bits). The
 * checksum (CRC-32 of the prefix and the random part, in base62) lets secret scanners and
 * Gatehouse recognise a key without a lookup; it is no secret. Stored: the SHA-256 of the whole
 * key and its first characters (`start`), never the key.
 */
import { createHash, randomInt } from "node:crypto"
import { crc32 } from "node:zlib"

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
export const RANDOM_LENGTH = 40
export const CHECKSUM_LENGTH = 6
const BASE62 = /^[0-9A-Za-z]+$/

function base62(value: number, width: number): string {
  let out = ""
  let rest = value
  for (let i = 0; i < width; i++) {
    out = ALPHABET[rest % 62] + out
    rest = Math.floor(rest / 62)
  }
  return out
}

export function checksumOf(body: string): string {
  return base62(crc32(body) >>> 0, CHECKSUM_LENGTH)
}

export function newKey(prefix: string): string {
  let random = ""
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(62)]
  const body = `${prefix}${random}`
  return `${body}${checksumOf(body)}`
}

/** The key's SHA-256 (base64url): what is stored and looked up. */
export function keyHash(key: string): string {
  return createHash("sha256").update(key).digest("base64url")
}

/** What people see of a key: its prefix and four more characters. */
export function keyStart(key: string, prefix: string): string {
  return key.slice(0, prefix.length + 4)
}

/** True when `presented` has this app's prefix, length, alphabet and a right checksum. */
export function wellFormed(presented: string, prefix: string, length: number): boolean {
  if (presented.length !== length || !presented.startsWith(prefix)) return false
  const rest = presented.slice(prefix.length)
  if (!BASE62.test(rest)) return false
  const body = presented.slice(0, length - CHECKSUM_LENGTH)
  return checksumOf(body) === presented.slice(length - CHECKSUM_LENGTH)
}
