/**
 * A software WebAuthn authenticator for crafted ceremonies (SECURITY-CATALOG.md §0 "soft.authenticator").
 *
 * A P-256 key pair from node:crypto. `register()` answers a registration (attestation "none":
 * a CBOR attestationObject { fmt, attStmt, authData } whose authData carries the attested
 * credential data and the COSE EC2 public key); `authenticate()` answers an authentication
 * (authenticatorData, and an ECDSA-SHA256 DER signature over authData ‖ sha256(clientDataJSON)).
 * Both return the JSON a browser would post (base64url fields), and every field can be set per
 * call so a test can make exactly one thing wrong. Independent of @simplewebauthn on purpose.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"

// ---------------------------------------------------------------------------------------------
// A tiny CBOR encoder (RFC 8949): unsigned/negative integers, byte and text strings, arrays,
// maps (Map for integer keys, plain objects for text keys), booleans and null.

export type Cbor = number | string | boolean | null | Uint8Array | Cbor[] | Map<number | string, Cbor> | { [key: string]: Cbor }

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
  if (length < 0x10000) {
    const out = Buffer.alloc(3)
    out[0] = (major << 5) | 25
    out.writeUInt16BE(length, 1)
    return out
  }
  const out = Buffer.alloc(5)
  out[0] = (major << 5) | 26
  out.writeUInt32BE(length, 1)
  return out
}

export function cbor(value: Cbor): Buffer {
  if (value === null) return Buffer.from([0xf6])
  if (value === true) return Buffer.from([0xf5])
  if (value === false) return Buffer.from([0xf4])
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new Error("cbor: integers only")
    return value >= 0 ? head(0, value) : head(1, -1 - value)
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8")
    return Buffer.concat([head(3, bytes.length), bytes])
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)])
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)])
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])])
}

// ---------------------------------------------------------------------------------------------

export const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url")
export const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest()

export interface Flags {
  up: boolean
  uv: boolean
  be: boolean
  bs: boolean
}

export function flagsByte(flags: Flags, attested: boolean): number {
  return (flags.up ? 0x01 : 0) | (flags.uv ? 0x04 : 0) | (flags.be ? 0x08 : 0) | (flags.bs ? 0x10 : 0) | (attested ? 0x40 : 0)
}

/** What a ceremony answers: every field the catalog needs to get wrong, one at a time. */
export interface CeremonyOverrides {
  /** clientDataJSON.challenge (default: the options' challenge). */
  challenge?: string
  /** clientDataJSON.origin (default: the authenticator's origin). */
  origin?: string
  /** clientDataJSON.type (default: webauthn.create / webauthn.get). */
  type?: string
  crossOrigin?: boolean
  topOrigin?: string
  /** Replaces the whole clientData object (after the fields above are applied). */
  clientData?: (clientData: Record<string, unknown>) => Record<string, unknown>
  /** The RP id whose SHA-256 goes in authData (default: the authenticator's RP id). */
  rpId?: string
  /** The raw rpIdHash (wins over rpId). */
  rpIdHash?: Uint8Array
  flags?: Partial<Flags>
  /** The raw flags byte (wins over flags). */
  flagsByte?: number
  /** The signature counter in authData (default: registration keeps it, authentication adds 1). */
  signCount?: number
  /** The JSON's id and rawId (default: base64url of the credential id). */
  id?: string
  rawId?: string
  /** The JSON's type (default public-key). */
  credentialType?: string
  authenticatorAttachment?: string
}

export interface RegistrationOverrides extends CeremonyOverrides {
  fmt?: string
  attStmt?: Cbor
  /** More entries in the attestation object (to make it large, for instance). */
  extraAttestation?: Record<string, Cbor>
  /** response.transports as sent (default ["internal", "hybrid"]). */
  transports?: unknown
  /** The COSE alg written in the public key (default -7, ES256). */
  alg?: number
}

export interface AuthenticationOverrides extends CeremonyOverrides {
  /** response.userHandle: a base64url string, or null to send none (default: the handle from registration). */
  userHandle?: string | null
  /** Flip the last byte of the DER signature (still well-formed DER, no longer valid). */
  corruptSignature?: boolean
}

export interface SoftAuthenticatorOptions {
  rpId: string
  origin: string
  /** The credential id's bytes (default 16 random bytes). */
  credentialId?: Uint8Array
  /** The counter the authenticator starts from (default 0). */
  signCount?: number
  /** Whether each authentication adds 1 to the counter (default true); false models counter-0 passkeys. */
  counting?: boolean
  /** Default flags (default UP and UV; BE and BS off). */
  flags?: Partial<Flags>
  /** The user handle to answer with (set by register() from the options). */
  userHandle?: string
}

export interface RegistrationResponse {
  id: string
  rawId: string
  type: string
  response: { clientDataJSON: string; attestationObject: string; transports?: unknown }
  clientExtensionResults: Record<string, never>
  authenticatorAttachment?: string
}

export interface AuthenticationResponse {
  id: string
  rawId: string
  type: string
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string }
  clientExtensionResults: Record<string, never>
  authenticatorAttachment?: string
}

export class SoftAuthenticator {
  readonly rpId: string
  readonly origin: string
  readonly credentialId: Uint8Array
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  readonly aaguid = new Uint8Array(16)
  signCount: number
  counting: boolean
  flags: Flags
  userHandle?: string

  constructor(options: SoftAuthenticatorOptions) {
    this.rpId = options.rpId
    this.origin = options.origin
    this.credentialId = options.credentialId ?? new Uint8Array(randomBytes(16))
    this.signCount = options.signCount ?? 0
    this.counting = options.counting ?? true
    this.flags = { up: true, uv: true, be: false, bs: false, ...options.flags }
    this.userHandle = options.userHandle
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" })
    this.privateKey = pair.privateKey
    this.publicKey = pair.publicKey
  }

  /** The credential id as the server stores it (base64url). */
  get id(): string {
    return b64url(this.credentialId)
  }

  /** The COSE_Key (EC2, P-256) of the public key. */
  cosePublicKey(alg = -7): Buffer {
    const jwk = this.publicKey.export({ format: "jwk" })
    const x = Buffer.from(jwk.x as string, "base64url")
    const y = Buffer.from(jwk.y as string, "base64url")
    return cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, alg],
        [-1, 1],
        [-2, new Uint8Array(x)],
        [-3, new Uint8Array(y)],
      ]),
    )
  }

  private clientDataJSON(defaultType: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    let clientData: Record<string, unknown> = {
      type: overrides.type ?? defaultType,
      challenge: overrides.challenge ?? challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: overrides.crossOrigin ?? false,
    }
    if (overrides.topOrigin !== undefined) clientData.topOrigin = overrides.topOrigin
    if (overrides.clientData) clientData = overrides.clientData(clientData)
    return Buffer.from(JSON.stringify(clientData), "utf8")
  }

  private authDataHead(overrides: CeremonyOverrides, attested: boolean, signCount: number): Buffer {
    const rpIdHash = overrides.rpIdHash ?? sha256(overrides.rpId ?? this.rpId)
    const flags = overrides.flagsByte ?? flagsByte({ ...this.flags, ...overrides.flags }, attested)
    const count = Buffer.alloc(4)
    count.writeUInt32BE(signCount >>> 0)
    return Buffer.concat([Buffer.from(rpIdHash), Buffer.from([flags]), count])
  }

  /** Answers `options` (from webauthn-options, action register) like navigator.credentials.create(). */
  register(options: { challenge: string; user?: { id?: string } }, overrides: RegistrationOverrides = {}): RegistrationResponse {
    if (options.user?.id) this.userHandle = options.user.id
    const clientDataJSON = this.clientDataJSON("webauthn.create", options.challenge, overrides)
    const signCount = overrides.signCount ?? this.signCount
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const authData = Buffer.concat([
      this.authDataHead(overrides, true, signCount),
      Buffer.from(this.aaguid),
      idLength,
      Buffer.from(this.credentialId),
      this.cosePublicKey(overrides.alg),
    ])
    const attestation: Record<string, Cbor> = {
      fmt: overrides.fmt ?? "none",
      attStmt: overrides.attStmt ?? {},
      authData: new Uint8Array(authData),
      ...overrides.extraAttestation,
    }
    const response: RegistrationResponse["response"] = {
      clientDataJSON: b64url(clientDataJSON),
      attestationObject: b64url(cbor(attestation)),
    }
    const transports = "transports" in overrides ? overrides.transports : ["internal", "hybrid"]
    if (transports !== undefined) response.transports = transports
    return {
      id: overrides.id ?? this.id,
      rawId: overrides.rawId ?? overrides.id ?? this.id,
      type: overrides.credentialType ?? "public-key",
      response,
      clientExtensionResults: {},
      authenticatorAttachment: overrides.authenticatorAttachment ?? "platform",
    }
  }

  /** Answers `options` (action authenticate) like navigator.credentials.get(). */
  authenticate(options: { challenge: string }, overrides: AuthenticationOverrides = {}): AuthenticationResponse {
    const clientDataJSON = this.clientDataJSON("webauthn.get", options.challenge, overrides)
    let signCount = overrides.signCount
    if (signCount === undefined) {
      if (this.counting) this.signCount += 1
      signCount = this.signCount
    }
    const authData = this.authDataHead(overrides, false, signCount)
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey)
    if (overrides.corruptSignature) signature[signature.length - 1] ^= 0x01
    const response: AuthenticationResponse["response"] = {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
    }
    const userHandle = "userHandle" in overrides ? overrides.userHandle : this.userHandle
    if (typeof userHandle === "string") response.userHandle = userHandle
    return {
      id: overrides.id ?? this.id,
      rawId: overrides.rawId ?? overrides.id ?? this.id,
      type: overrides.credentialType ?? "public-key",
      response,
      clientExtensionResults: {},
      authenticatorAttachment: overrides.authenticatorAttachment ?? "platform",
    }
  }
}
