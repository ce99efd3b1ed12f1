/**
 * `encode` and `decode` of `gatehouse/jwt` (re-exported by index.ts): seal a token as a JWE with
 * the first secret, open one with any of them. Code inside Gatehouse imports them from here, not
 * from index.ts, whose `getToken` resolves the app's configuration.
 */
import { InvalidOption, MissingSecretError } from "../errors.js"
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "../types.js"
import { DEFAULT_MAX_AGE, openToken, sealToken } from "./codec.js"

/** The secrets given, without empty ones; none is a MissingSecretError naming `where`. */
export function secretList(secret: string | string[] | undefined, where: string): string[] {
  const list = (Array.isArray(secret) ? secret : [secret]).filter((s): s is string => typeof s === "string" && s.length > 0)
  if (!list.length) throw new MissingSecretError(`${where}: a secret is required`)
  return list
}

function requireSalt(salt: unknown, where: string): string {
  if (typeof salt !== "string" || !salt) {
    throw new InvalidOption(`${where}: salt must be a non-empty string (Gatehouse uses the cookie name)`)
  }
  return salt
}

/** Seals `token` as a JWE (dir, A256CBC-HS512) with the first secret. */
export async function encode<Payload extends object = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const { token = {} as Payload, maxAge = DEFAULT_MAX_AGE } = params
  const secret = secretList(params.secret, "encode")[0] as string
  return sealToken(token as JWT, secret, requireSalt(params.salt, "encode"), maxAge)
}

/** Opens a token, trying each secret in order. Null for a missing, invalid or expired token. */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const secrets = secretList(params.secret, "decode")
  const salt = requireSalt(params.salt, "decode")
  if (!params.token) return null
  return (openToken(params.token, secrets, salt)?.payload as Payload | undefined) ?? null
}
