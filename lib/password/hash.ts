/**
 * Password hashes: scrypt from `node:crypto`, at or above OWASP's recommendation (Password Storage
 * Cheat Sheet: N=2^17, r=8, p=1). The stored string carries its parameters and salt,
 * `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (base64url), so a hash made under older parameters still
 * verifies, and `needsRehash` says when to replace it (on the next successful sign-in).
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto"

export interface ScryptParams {
  /** log2 of the cost N. */
  ln: number
  r: number
  p: number
}

/** OWASP's current minimum for scrypt. */
export const OWASP_SCRYPT: Readonly<ScryptParams> = Object.freeze({ ln: 17, r: 8, p: 1 })

const KEY_LENGTH = 32
const SALT_LENGTH = 16
/** What a stored string may ask for: enough for any sane setting, never a memory bomb. */
const BOUNDS = { ln: [10, 20], r: [1, 32], p: [1, 16] } as const

function scrypt(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** params.ln, r: params.r, p: params.p, maxmem: 256 * 2 ** params.ln * params.r + 32 * 1024 * 1024 }
  return new Promise((resolve, reject) => scryptCallback(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))))
}

export async function hashPassword(password: string, params: ScryptParams = OWASP_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_LENGTH)
  const key = await scrypt(password, salt, params, KEY_LENGTH)
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString("base64url")}$${key.toString("base64url")}`
}

interface Parsed {
  params: ScryptParams
  salt: Buffer
  key: Buffer
}

const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]{16,88})\$([A-Za-z0-9_-]{22,172})$/

const within = (value: number, [low, high]: readonly [number, number]) => value >= low && value <= high

export function parseHash(stored: string): Parsed | null {
  const match = FORMAT.exec(stored)
  if (!match) return null
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) }
  if (!within(params.ln, BOUNDS.ln) || !within(params.r, BOUNDS.r) || !within(params.p, BOUNDS.p)) return null
  return { params, salt: Buffer.from(match[4] as string, "base64url"), key: Buffer.from(match[5] as string, "base64url") }
}

/** True when `password` matches `stored`; false for a mismatch or a string that is no hash of ours. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored)
  if (!parsed) return false
  const key = await scrypt(password, parsed.salt, parsed.params, parsed.key.length)
  return timingSafeEqual(key, parsed.key)
}

/** The hash was made under weaker parameters than `params` (or is not ours): replace it. */
export function needsRehash(stored: string, params: ScryptParams = OWASP_SCRYPT): boolean {
  const parsed = parseHash(stored)
  if (!parsed) return true
  const { ln, r, p } = parsed.params
  return ln < params.ln || r < params.r || p < params.p || parsed.key.length < KEY_LENGTH
}

/** A hash of nothing anyone knows, under `params`: checked when there is no user, so both answers take as long. */
const dummies = new Map<string, Promise<string>>()
export function dummyHash(params: ScryptParams = OWASP_SCRYPT): Promise<string> {
  const key = `${params.ln},${params.r},${params.p}`
  let dummy = dummies.get(key)
  if (!dummy) {
    dummy = hashPassword(randomBytes(24).toString("base64url"), params)
    dummies.set(key, dummy)
  }
  return dummy
}
