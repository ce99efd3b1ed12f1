/**
 * The `serviceTokens` option (issue #31), checked and resolved once with the configuration. Off
 * unless given. Configured keys are checked here, at start-up, with Node's own JWK import (a key
 * that is not a private P-256 or Ed25519 key fails now, not at the first token), and their public
 * halves are derived once.
 */
import { createPrivateKey, createPublicKey, sign, verify, type JsonWebKey } from "node:crypto"
import type { Jwk as JWK } from "./jwk.js"
import { InvalidOption } from "../errors.js"

export type ServiceTokenAlgorithm = "ES256" | "EdDSA"

export interface ServiceTokensOptions {
  /** The algorithm of generated keys: `ES256` (P-256, the default) or `EdDSA` (Ed25519). */
  algorithm?: ServiceTokenAlgorithm
  /** A token's lifetime in seconds: 300 by default, 30 to 3600. */
  maxAge?: number
  /**
   * The audiences a token may be asked for (`GET token?audience=`); with one, the parameter may be
   * left out. Default: the site's origin alone.
   */
  audiences?: string[]
  /** The `iss` claim. Default: the auth router's base URL (`https://example.com/auth`). */
  issuer?: string
  /**
   * Private JWKs, each with a `kid`: the first signs, all are published. Rotating: put the new key
   * first and keep the old one until the tokens it signed have expired (`maxAge`). Without it,
   * keys are generated, kept sealed in the shared store and rotated (`rotation`).
   */
  keys?: JWK[]
  /** Generated keys only: how often a new key takes over, in seconds (30 days by default, at least 60). */
  rotation?: { every?: number }
}

/** A configured key, checked: its private JWK (to sign) and its public JWK (to publish). */
export interface ConfiguredKey {
  readonly kid: string
  readonly alg: ServiceTokenAlgorithm
  readonly privateJwk: JWK
  readonly publicJwk: JWK
}

export interface ResolvedServiceTokens {
  readonly algorithm: ServiceTokenAlgorithm
  readonly maxAge: number
  /** undefined: the site's origin (known per request). */
  readonly audiences?: readonly string[]
  /** undefined: the auth router's base URL (known per request). */
  readonly issuer?: string
  /** undefined: generated keys. */
  readonly keys?: readonly ConfiguredKey[]
  /** Seconds between generated keys. */
  readonly rotation: number
}

const DEFAULT_MAX_AGE = 300
const DEFAULT_ROTATION = 30 * 24 * 60 * 60
const ALGORITHMS: readonly ServiceTokenAlgorithm[] = ["ES256", "EdDSA"]

const show = (value: unknown) => JSON.stringify(value) ?? String(value)
const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value)

function wholeNumber(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOption(`${path} must be a whole number of seconds from ${min} to ${max} (got ${show(value)})`)
  }
  return value
}

function audiencesOf(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined
  const valid = Array.isArray(value) && value.length > 0 && value.every((audience) => typeof audience === "string" && audience.length > 0 && !/\s/.test(audience))
  if (!valid) throw new InvalidOption(`serviceTokens.audiences must be a non-empty list of strings without spaces, such as ["https://api.example.com"] (got ${show(value)})`)
  if (new Set(value).size !== value.length) throw new InvalidOption(`serviceTokens.audiences lists an audience twice (got ${show(value)})`)
  return Object.freeze([...(value as string[])])
}

/** The algorithm a private JWK signs with, from its key type and curve. */
function algorithmOf(jwk: Record<string, unknown>): ServiceTokenAlgorithm | undefined {
  if (jwk.kty === "EC" && jwk.crv === "P-256") return "ES256"
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519") return "EdDSA"
  return undefined
}

function configuredKey(jwk: unknown, path: string): ConfiguredKey {
  if (!isObject(jwk)) throw new InvalidOption(`${path} must be a private JWK object (got ${show(jwk)})`)
  const { kid, d, use } = jwk
  if (typeof kid !== "string" || !kid) throw new InvalidOption(`${path} must have a "kid": verifiers pick the key by it`)
  const alg = algorithmOf(jwk)
  if (!alg) throw new InvalidOption(`${path} ("${kid}") must be a P-256 (ES256) or Ed25519 (EdDSA) key (got kty ${show(jwk.kty)}, crv ${show(jwk.crv)})`)
  if (jwk.alg !== undefined && jwk.alg !== alg) throw new InvalidOption(`${path} ("${kid}") says alg ${show(jwk.alg)} but is a ${alg} key`)
  if (use !== undefined && use !== "sig") throw new InvalidOption(`${path} ("${kid}") has use ${show(use)}; a signing key has "sig" or none`)
  if (typeof d !== "string") throw new InvalidOption(`${path} ("${kid}") is a public key: give the private JWK (with "d"); its public half is published`)
  let exported: JsonWebKey
  try {
    const privateKey = createPrivateKey({ key: jwk as JsonWebKey, format: "jwk" })
    const publicKey = createPublicKey(privateKey)
    // Node takes "d" and "x"/"y" as given: a "d" of another key would sign tokens that the
    // published half never verifies. One signature, once, at start-up, proves they belong together.
    const probe = Buffer.from("gatehouse service-token key check")
    const digest = alg === "ES256" ? "sha256" : null
    if (!verify(digest, probe, publicKey, sign(digest, probe, privateKey))) throw new Error("the private and public halves do not match")
    exported = publicKey.export({ format: "jwk" })
  } catch (error) {
    throw new InvalidOption(`${path} ("${kid}") is not a valid ${alg} key`, { cause: { err: error } })
  }
  const publicJwk: JWK = Object.freeze({ ...(exported as JWK), kid, alg, use: "sig" })
  return Object.freeze({ kid, alg, privateJwk: Object.freeze({ ...(jwk as JWK) }), publicJwk })
}

function keysOf(value: unknown): readonly ConfiguredKey[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value) || value.length === 0) throw new InvalidOption(`serviceTokens.keys must be a non-empty list of private JWKs (got ${show(value)})`)
  const keys = value.map((jwk, index) => configuredKey(jwk, `serviceTokens.keys[${index}]`))
  const kids = keys.map((key) => key.kid)
  const twice = kids.find((kid, index) => kids.indexOf(kid) !== index)
  if (twice !== undefined) throw new InvalidOption(`serviceTokens.keys has two keys with the kid "${twice}"`)
  return Object.freeze(keys)
}

export function resolveServiceTokens(option: unknown): ResolvedServiceTokens | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && !isObject(option)) throw new InvalidOption(`serviceTokens must be true or an object such as { maxAge: 300 } (got ${show(option)})`)
  const given = (option === true ? {} : option) as Record<string, unknown>
  const known = ["algorithm", "maxAge", "audiences", "issuer", "keys", "rotation"]
  const unknown = Object.keys(given).find((name) => !known.includes(name))
  if (unknown !== undefined) throw new InvalidOption(`serviceTokens.${unknown} is not an option (known: ${known.join(", ")})`)
  const { algorithm = "ES256", maxAge = DEFAULT_MAX_AGE, issuer, rotation } = given
  if (!ALGORITHMS.includes(algorithm as ServiceTokenAlgorithm)) throw new InvalidOption(`serviceTokens.algorithm must be "ES256" or "EdDSA" (got ${show(algorithm)})`)
  if (issuer !== undefined && (typeof issuer !== "string" || !issuer)) throw new InvalidOption(`serviceTokens.issuer must be a non-empty string (got ${show(issuer)})`)
  const keys = keysOf(given.keys)
  if (keys && given.algorithm !== undefined && keys[0]?.alg !== algorithm) {
    throw new InvalidOption(`serviceTokens.algorithm is ${show(algorithm)} but the signing key (serviceTokens.keys[0]) is a ${keys[0]?.alg} key`)
  }
  if (keys && rotation !== undefined) throw new InvalidOption("serviceTokens.rotation is for generated keys; with serviceTokens.keys, rotate by putting the new key first")
  if (rotation !== undefined && !isObject(rotation)) throw new InvalidOption(`serviceTokens.rotation must be an object such as { every: 2592000 } (got ${show(rotation)})`)
  const every = rotation?.every === undefined ? DEFAULT_ROTATION : wholeNumber(rotation.every, "serviceTokens.rotation.every", 60, 365 * 24 * 60 * 60)
  return Object.freeze({
    algorithm: keys?.[0]?.alg ?? (algorithm as ServiceTokenAlgorithm),
    maxAge: wholeNumber(maxAge, "serviceTokens.maxAge", 30, 3600),
    audiences: audiencesOf(given.audiences),
    issuer: issuer as string | undefined,
    keys,
    rotation: every,
  })
}
