/**
 * Token builders for the security suite: genuine tokens through the public `encode`, and hand-built
 * ones (jose, or an independent RFC 7518 implementation) for algorithm and claim confusion.
 */
import { createCipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto"
import { CompactEncrypt, CompactSign, UnsecuredJWT } from "jose"
import { encode, decode } from "../../lib/jwt/index.js"
import type { JWT } from "../../lib/types.js"
import { SECRET, USERS } from "../helpers/app.js"

const SESSION = "authjs.session-token"

export function mint(payload: JWT, options: { secret?: string; salt?: string; maxAge?: number } = {}): Promise<string> {
  return encode({ token: payload, secret: options.secret ?? SECRET, salt: options.salt ?? SESSION, maxAge: options.maxAge })
}

export function open(token: string, salt = SESSION, secret: string | string[] = SECRET): Promise<JWT | null> {
  return decode({ token, secret, salt })
}

/** HKDF-SHA256(secret, salt, "Auth.js Generated Encryption Key (<salt>)"): the documented derivation. */
export function kdf(secret: string, salt = SESSION, length = 64): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, length))
}

export function thumbprint(key: Uint8Array): string {
  const jwk = `{"k":"${Buffer.from(key).toString("base64url")}","kty":"oct"}`
  return createHash(`sha${key.length * 8}`).update(jwk).digest("base64url")
}

/** A compact JWE built with jose; `plaintext` as given (a string is sent byte for byte). */
export async function rawJwe(header: Record<string, unknown>, plaintext: string | object, key: Uint8Array): Promise<string> {
  const bytes = new TextEncoder().encode(typeof plaintext === "string" ? plaintext : JSON.stringify(plaintext))
  return new CompactEncrypt(bytes).setProtectedHeader(header as never).encrypt(key)
}

/**
 * An independent A256CBC-HS512 `dir` JWE (RFC 7518 §5.2.2.1) with any protected header text and
 * plaintext bytes: for headers and claims jose refuses to produce (zip, crit, duplicate keys, 1e309).
 */
export function sealRaw(header: string | object, plaintext: string | Buffer, key: Uint8Array = kdf(SECRET)): string {
  const protectedHeader = Buffer.from(typeof header === "string" ? header : JSON.stringify(header)).toString("base64url")
  const iv = randomBytes(16)
  const cipher = createCipheriv("aes-256-cbc", key.subarray(32, 64), iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  const aad = Buffer.from(protectedHeader, "ascii")
  const bits = Buffer.alloc(8)
  bits.writeBigUInt64BE(BigInt(aad.length) * 8n)
  const tag = createHmac("sha512", key.subarray(0, 32)).update(aad).update(iv).update(ciphertext).update(bits).digest().subarray(0, 32)
  return [protectedHeader, "", iv.toString("base64url"), ciphertext.toString("base64url"), tag.toString("base64url")].join(".")
}

export const DIR_CBC = { alg: "dir", enc: "A256CBC-HS512" }

/** Claims for a session of `who` valid now (override any of them). */
export function claims(who: "alice" | "bob" = "alice", extra: Record<string, unknown> = {}): Record<string, unknown> {
  const user = USERS[who]!
  const t = now()
  return { name: user.name, email: user.email, picture: user.image, sub: user.id, iat: t, exp: t + 3600, jti: `jti-${who}-${t}`, ...extra }
}

export function rawJws(payload: object, key: Uint8Array): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: "HS256" }).sign(key)
}

export function rawNone(payload: Record<string, unknown>): string {
  return new UnsecuredJWT(payload).encode()
}

export const now = () => Math.floor(Date.now() / 1000)

export function randomToken(chars: number): string {
  return randomBytes(Math.ceil(chars)).toString("base64url").slice(0, chars)
}
