/**
 * A connection's stored secret (an OIDC client secret, issue #28) at rest: sealed (JWE dir +
 * A256CBC-HS512) with a key derived from the app secret and a salt of its own, as the TOTP secret
 * is (lib/two-factor/secret-box.ts), so a database dump alone does not reveal it. Opened with each
 * configured secret in turn: after a rotation (`secret: [new, old]`) stored connections keep working.
 * The code storing a connection seals; the code calling the identity provider opens.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { decode, encode } from "../jwt/encode-decode.js"
import { InvalidSsoConnection } from "./errors.js"

const SALT = "gatehouse.sso.connection-secret"
/** The seal does not expire by itself: it lives as long as the connection. */
const SEAL_LIFETIME = 100 * 365 * 24 * 3600

export async function sealSecret(config: Pick<ResolvedConfig, "secrets">, plain: string): Promise<string> {
  return encode({ token: { secret: plain }, secret: [...config.secrets], salt: SALT, maxAge: SEAL_LIFETIME })
}

export async function openSecret(config: Pick<ResolvedConfig, "secrets">, sealed: string): Promise<string> {
  const opened = await decode<{ secret?: unknown }>({ token: sealed, secret: [...config.secrets], salt: SALT })
  if (typeof opened?.secret !== "string") {
    throw new InvalidSsoConnection("A connection's stored secret does not open with any configured secret (was it stored unsealed, or the app secret replaced rather than rotated?)")
  }
  return opened.secret
}
