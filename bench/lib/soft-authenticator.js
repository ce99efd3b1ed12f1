// A software passkey for the sign-in bench (issue #36): a P-256 key pair from node:crypto that
// answers WebAuthn registration (attestation "none") and authentication options the way a
// browser's navigator.credentials would, as the JSON the page posts. A counter-0 authenticator
// (as many platform passkeys are), so concurrent sign-ins never trip the counter check.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto"

const b64url = (bytes) => Buffer.from(bytes).toString("base64url")
const sha256 = (data) => createHash("sha256").update(data).digest()

function head(major, length) {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
  const out = Buffer.alloc(3)
  out[0] = (major << 5) | 25
  out.writeUInt16BE(length, 1)
  return out
}

/** CBOR (RFC 8949) for what a registration needs: integers, text, bytes, maps. */
function cbor(value) {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8")
    return Buffer.concat([head(3, bytes.length), bytes])
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value])
  const entries = value instanceof Map ? [...value] : Object.entries(value)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])])
}

const UP_UV = 0x01 | 0x04

export class SoftAuthenticator {
  constructor({ rpId, origin }) {
    this.rpId = rpId
    this.origin = origin
    this.credentialId = randomBytes(16)
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" })
    this.privateKey = pair.privateKey
    this.publicKey = pair.publicKey
  }

  #clientData(type, challenge) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }))
  }

  #authDataHead(flags) {
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), Buffer.alloc(4)])
  }

  /** Answers registration options (navigator.credentials.create()). */
  register(options) {
    if (options.user?.id) this.userHandle = options.user.id
    const jwk = this.publicKey.export({ format: "jwk" })
    const cose = cbor(
      new Map([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x, "base64url")],
        [-3, Buffer.from(jwk.y, "base64url")],
      ]),
    )
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const authData = Buffer.concat([this.#authDataHead(UP_UV | 0x40), Buffer.alloc(16), idLength, this.credentialId, cose])
    const id = b64url(this.credentialId)
    return {
      id,
      rawId: id,
      type: "public-key",
      response: { clientDataJSON: b64url(this.#clientData("webauthn.create", options.challenge)), attestationObject: b64url(cbor({ fmt: "none", attStmt: {}, authData })), transports: ["internal"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }

  /** Answers authentication options (navigator.credentials.get()). */
  authenticate(options) {
    const clientDataJSON = this.#clientData("webauthn.get", options.challenge)
    const authData = this.#authDataHead(UP_UV)
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey)
    const id = b64url(this.credentialId)
    return {
      id,
      rawId: id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), ...(this.userHandle && { userHandle: this.userHandle }) },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    }
  }
}
