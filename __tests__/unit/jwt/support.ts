/**
 * Helpers for the session-token unit tests. Everything here is computed independently of
 * lib/jwt (node:crypto's HKDF and jose), so the tests compare the code against the spec rather
 * than against itself.
 */
import { createCipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto"
import { CompactEncrypt, base64url, calculateJwkThumbprint, type CompactJWEHeaderParameters } from "jose"

export const SALT = "authjs.session-token"
export const SECURE_SALT = "__Secure-authjs.session-token"

export const nowSec = () => Math.floor(Date.now() / 1000)

/** HKDF-SHA256(secret, salt, "Auth.js Generated Encryption Key (<salt>)"), as Auth.js v5 derives it. */
export function manualKey(secret: string, salt: string, length: 64 | 32 = 64): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, length))
}

/** RFC 7638 thumbprint of the key as an `oct` JWK, with SHA-(key bits). */
export function manualKid(key: Uint8Array): Promise<string> {
  return calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, key.byteLength === 64 ? "sha512" : "sha256")
}

/** A payload that our codec accepts: expires in an hour. */
export function validClaims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const now = nowSec()
  return { sub: "user-1", name: "Alice", iat: now, exp: now + 3600, jti: "jti-1", ...extra }
}

/**
 * A compact JWE built by jose with the given protected header and key. `plaintext` is either a
 * claims object (JSON-encoded) or the exact text to encrypt.
 */
export function joseJwe(
  header: CompactJWEHeaderParameters,
  plaintext: Record<string, unknown> | string,
  key: Uint8Array,
  options?: Parameters<CompactEncrypt["encrypt"]>[1],
): Promise<string> {
  const text = typeof plaintext === "string" ? plaintext : JSON.stringify(plaintext)
  return new CompactEncrypt(new TextEncoder().encode(text)).setProtectedHeader(header).encrypt(key, options)
}

/** A token sealed the way Gatehouse seals, but by jose: dir + A256CBC-HS512, the real key and kid. */
export async function joseSealed(plaintext: Record<string, unknown> | string, secret: string, salt = SALT, headerExtra: Record<string, unknown> = {}): Promise<string> {
  const key = manualKey(secret, salt, 64)
  return joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: await manualKid(key), ...headerExtra }, plaintext, key)
}

/** The decoded protected header of a compact JWE/JWS. */
export function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[0] as string, "base64url").toString("utf8")) as Record<string, unknown>
}

/** Replaces segment `index` of a compact token. */
export function withSegment(token: string, index: number, value: string): string {
  const parts = token.split(".")
  parts[index] = value
  return parts.join(".")
}

/** The token with one bit flipped in byte `byteIndex` (negative: from the end) of segment `index`. */
export function flipBit(token: string, index: number, byteIndex: number, bit = 0x01): string {
  const bytes = Buffer.from(token.split(".")[index] as string, "base64url")
  const at = byteIndex < 0 ? bytes.length + byteIndex : byteIndex
  bytes[at] = (bytes[at] as number) ^ bit
  return withSegment(token, index, bytes.toString("base64url"))
}

/**
 * RFC 7518 §5.2.2.1 (AES-256-CBC + HMAC-SHA-512/256) written out with node:crypto, for headers
 * jose will not produce (or would alter the plaintext for, like `zip`). The protected header is
 * exactly `JSON.stringify(header)`, and the tag is genuine for it.
 */
export function cbcSeal(header: Record<string, unknown>, plaintext: string, key: Uint8Array): string {
  const protectedHeader = Buffer.from(JSON.stringify(header)).toString("base64url")
  const iv = randomBytes(16)
  const cipher = createCipheriv("aes-256-cbc", key.subarray(32, 64), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  const aad = Buffer.from(protectedHeader, "ascii")
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.length * 8))
  const tag = createHmac("sha512", key.subarray(0, 32)).update(aad).update(iv).update(ciphertext).update(al).digest().subarray(0, 32)
  return [protectedHeader, "", iv.toString("base64url"), ciphertext.toString("base64url"), tag.toString("base64url")].join(".")
}
