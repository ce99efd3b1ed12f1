/**
 * The provider's signing keys: the configured ones, or a pair generated once (RSA 2048 for RS256,
 * which OpenID Connect clients expect by default, and EC P-256 for ES256) and kept through the
 * adapter, the private halves sealed with the app's secret (never in clear). Processes that start
 * together may each generate a pair: each writes its own, waits a moment and adopts what was
 * written last, so they all sign with the same keys before the first token. Keys are read once
 * per process (the provider is built once, provider.ts).
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { AuthError } from "../errors.js"
import { openToken, sealToken } from "../jwt/codec.js"
import type { ResolvedOidcProvider } from "./settings.js"

const MODEL = "GatehouseSigningKeys"
const ID = "current"
const SALT = "gatehouse.identity-provider.signing-keys"
const SEAL_SECONDS = 50 * 365 * 24 * 60 * 60
/** How long a process that wrote keys waits before reading back the ones every process adopts. */
const SETTLE_MS = 300

async function generate(): Promise<JWK[]> {
  const keys: JWK[] = []
  for (const [alg, options] of [["RS256", { modulusLength: 2048, extractable: true }], ["ES256", { extractable: true }]] as const) {
    const pair = await generateKeyPair(alg, options)
    const jwk = await exportJWK(pair.privateKey)
    keys.push({ ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: "sig" })
  }
  return keys
}

function open(config: ResolvedConfig, payload: string): JWK[] | null {
  let sealed: unknown
  try {
    sealed = (JSON.parse(payload) as { sealed?: unknown }).sealed
  } catch {
    return null
  }
  if (typeof sealed !== "string") return null
  const opened = openToken(sealed, config.secrets, SALT)
  const keys = opened?.payload.keys
  return Array.isArray(keys) ? (keys as JWK[]) : null
}

async function stored(config: ResolvedConfig): Promise<JWK[] | null> {
  const record = await config.adapter!.getOidcRecord!(MODEL, ID)
  if (!record) return null
  const keys = open(config, record.payload)
  if (!keys) throw new AuthError("The identity provider's signing keys cannot be opened with the app's secret (was the secret replaced without keeping the old one?)")
  return keys
}

/** The private JWKs the provider signs with (the first RSA key signs ID tokens). */
export async function signingKeys(config: ResolvedConfig, options: ResolvedOidcProvider): Promise<JWK[]> {
  if (options.keys) {
    return Promise.all(
      options.keys.map(async (key) => {
        const jwk = key as JWK
        return { ...jwk, kid: jwk.kid ?? (await calculateJwkThumbprint(jwk)), alg: jwk.alg ?? (jwk.kty === "RSA" ? "RS256" : "ES256"), use: "sig" }
      }),
    )
  }
  const found = await stored(config)
  if (found) return found
  const keys = await generate()
  const sealed = sealToken({ keys }, config.secrets[0] as string, SALT, SEAL_SECONDS)
  const adapter = config.adapter!
  await adapter.putOidcRecord!({ model: MODEL, id: ID, payload: JSON.stringify({ sealed }), grantId: null, userCode: null, uid: null, accountId: null, clientId: null, expiresAt: null, consumedAt: null })
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
  return (await stored(config)) ?? keys
}

/** The public halves, as published at the JWKS endpoint. */
export function publicKeys(keys: readonly JWK[]): JWK[] {
  return keys.map(({ kty, crv, n, e, x, y, kid, alg, use }) => Object.fromEntries(Object.entries({ kty, crv, n, e, x, y, kid, alg, use }).filter(([, value]) => value !== undefined)) as JWK)
}
