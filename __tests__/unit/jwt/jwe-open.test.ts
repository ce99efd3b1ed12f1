/**
 * lib/jwt/jwe.ts opening A256CBC-HS512 without a decipher per token (issue #36): the padding is
 * checked by the code itself and the block decryptor is kept per key. These tokens all carry a
 * genuine tag, so what is tested is the decryption and the padding check alone; and the compact
 * form is checked in one pass, so every structural fault is tried.
 */
import { createCipheriv, createHmac, randomBytes } from "node:crypto"
import { describe, expect, it } from "@jest/globals"
import { open, parse } from "../../../lib/jwt/jwe.js"
import { deriveKey } from "../../../lib/jwt/keys.js"
import { SECRET } from "../../helpers/app.js"
import { SALT, joseSealed, withSegment } from "./support.js"

const derived = deriveKey("A256CBC-HS512", SECRET, SALT)

/** Encrypts `padded` as it is (no padding added) and tags it genuinely. */
function sealRaw(padded: Buffer, key = derived): string {
  const protectedHeader = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid: key.kid })).toString("base64url")
  const iv = randomBytes(16)
  const cipher = createCipheriv("aes-256-cbc", key.key.subarray(32, 64), iv).setAutoPadding(false)
  const ciphertext = Buffer.concat([cipher.update(padded), cipher.final()])
  const aad = Buffer.from(protectedHeader, "ascii")
  const bits = Buffer.alloc(8)
  bits.writeBigUInt64BE(BigInt(aad.length * 8))
  const tag = createHmac("sha512", key.key.subarray(0, 32)).update(aad).update(iv).update(ciphertext).update(bits).digest().subarray(0, 32)
  return [protectedHeader, "", iv.toString("base64url"), ciphertext.toString("base64url"), tag.toString("base64url")].join(".")
}

const opened = (token: string) => {
  const jwe = parse(token)
  return jwe && open(jwe, derived.key)
}

describe("A256CBC-HS512 opening", () => {
  it("opens every plaintext length from 0 to 70 bytes sealed by jose (padding of 1 to 16 bytes), multi-byte text included", async () => {
    for (let length = 0; length <= 70; length++) {
      const text = "é€x".repeat(length).slice(0, length)
      expect(opened(await joseSealed(text, SECRET))).toBe(text)
    }
  })

  it("refuses a genuine tag over bad padding: 0, above 16, above the length, or bytes that differ", () => {
    const body = Buffer.from("0123456789abcdef0123456789ab")
    const cases = [
      Buffer.concat([body, Buffer.from([4, 4, 4, 0])]),
      Buffer.concat([body, Buffer.from([4, 4, 4, 17])]),
      Buffer.concat([body, Buffer.from([4, 3, 4, 4])]),
      Buffer.concat([body, Buffer.from([5, 4, 4, 4])]).subarray(0, 32),
      Buffer.alloc(16, 32),
      Buffer.concat([Buffer.alloc(15, 7), Buffer.from([16])]),
    ]
    for (const padded of cases) expect(opened(sealRaw(padded))).toBeNull()
    // The same construction with good padding opens: only the padding was wrong above.
    expect(opened(sealRaw(Buffer.concat([body, Buffer.from([4, 4, 4, 4])])))).toBe(body.toString())
    expect(opened(sealRaw(Buffer.alloc(16, 16)))).toBe("")
  })

  it("failures leave nothing behind: tokens of one key open in any order, between bad ones", async () => {
    const tokens = await Promise.all(["a", "b".repeat(40), "c".repeat(100)].map((text) => joseSealed(text, SECRET)))
    const bad = sealRaw(Buffer.alloc(32, 0))
    for (const order of [[0, 1, 2], [2, 1, 0], [1, 0, 2]]) {
      for (const index of order) {
        expect(opened(bad)).toBeNull()
        expect(opened(tokens[index] as string)).toBe(["a", "b".repeat(40), "c".repeat(100)][index])
      }
    }
    // Another key opens nothing of this one's, and this one still opens afterwards.
    const other = deriveKey("A256CBC-HS512", `${SECRET}-other`, SALT)
    expect(open(parse(tokens[0] as string)!, other.key)).toBeNull()
    expect(opened(tokens[0] as string)).toBe("a")
  })
})

describe("the compact form, checked in one pass", () => {
  it("refuses anything but five base64url parts with an empty encrypted key and a header of 1 to 1024 characters", async () => {
    const token = await joseSealed("{}", SECRET)
    const [header, , iv, ciphertext, tag] = token.split(".") as [string, string, string, string, string]
    expect(parse(token)).not.toBeNull()
    const faults = [
      `${token}.`,
      `${header}.${iv}.${ciphertext}.${tag}`,
      `${header}..${iv}.${ciphertext}.${tag}.x`,
      withSegment(token, 1, "AA"),
      withSegment(token, 0, ""),
      withSegment(token, 0, `${header}${"A".repeat(1025 - header.length)}`),
      ...[0, 2, 3, 4].flatMap((index) => ["+", "/", "=", " ", "é", "\n"].map((bad) => withSegment(token, index, `${token.split(".")[index]}${bad}`))),
      withSegment(token, 2, ""),
      withSegment(token, 3, ""),
      withSegment(token, 4, ""),
      withSegment(token, 3, ciphertext.slice(0, -2)),
    ]
    for (const fault of faults) expect(parse(fault)).toBeNull()
  })
})
