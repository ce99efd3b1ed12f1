/**
 * The TOTP secret at rest: sealed (JWE dir + A256CBC-HS512) with a key derived by HKDF from the
 * app secret and a salt of its own, so a database dump alone does not reveal it. Opened with each
 * configured secret in turn: after a rotation (`secret: [new, old]`) the secrets sealed with the
 * old one keep working, and are sealed again with the new one when next written.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { decode, encode } from "../jwt/encode-decode.js"
import { AuthError } from "../errors.js"

const SALT = "gatehouse.two-factor.secret"
/** The seal does not expire by itself: the record lives until the user turns two-factor off. */
const SEAL_LIFETIME = 100 * 365 * 24 * 3600

export async function sealSecret(config: ResolvedConfig, secret: string): Promise<string> {
  return encode({ token: { totp: secret }, secret: [...config.secrets], salt: SALT, maxAge: SEAL_LIFETIME })
}

export async function openSecret(config: ResolvedConfig, sealed: string): Promise<string> {
  const opened = await decode<{ totp?: unknown }>({ token: sealed, secret: [...config.secrets], salt: SALT })
  if (typeof opened?.totp !== "string") throw new AuthError("A stored TOTP secret does not open with any configured secret (was the app secret replaced rather than rotated?)")
  return opened.totp
}
