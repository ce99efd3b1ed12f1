/**
 * lib/jwt/cbc-hs512.ts computes the A256CBC-HS512 tag and the CBC decryption without a node:crypto
 * object per token (issue #36). Both must give exactly what `createHmac` and `createDecipheriv`
 * give, for every length, for several keys used in turn, and after refusing bad input.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from "node:crypto"
import { describe, expect, it } from "@jest/globals"
import { cbcKey } from "../../../lib/jwt/cbc-hs512.js"

const reference = {
  tag: (key: Buffer, parts: Buffer[]) => {
    const hmac = createHmac("sha512", key.subarray(0, 32))
    for (const part of parts) hmac.update(part)
    return hmac.digest().subarray(0, 32)
  },
  decrypt: (key: Buffer, iv: Buffer, ciphertext: Buffer) => Buffer.concat([createDecipheriv("aes-256-cbc", key.subarray(32, 64), iv).setAutoPadding(false).update(ciphertext)]),
}

describe("the A256CBC-HS512 tag", () => {
  it("equals createHmac's for parts of every size, the scratch buffer growing past 2 kB included", () => {
    const key = randomBytes(64)
    for (const total of [0, 1, 15, 16, 127, 128, 129, 500, 2047, 2048, 2049, 9000, 40_000, 300]) {
      const cut = randomInt(0, total + 1)
      const whole = randomBytes(total)
      const parts = [whole.subarray(0, cut), randomBytes(16), whole.subarray(cut), randomBytes(8)]
      expect(cbcKey(key).tag(parts).equals(reference.tag(key, parts))).toBe(true)
    }
  })

  it("is the key's own: several keys in turn each give their own tag, and one changed byte changes it", () => {
    const keys = Array.from({ length: 4 }, () => randomBytes(64))
    const parts = [randomBytes(120), randomBytes(16), randomBytes(256), randomBytes(8)]
    for (let round = 0; round < 3; round++) {
      for (const key of keys) expect(cbcKey(key).tag(parts).equals(reference.tag(key, parts))).toBe(true)
    }
    const tags = new Set(keys.map((key) => cbcKey(key).tag(parts).toString("hex")))
    expect(tags.size).toBe(keys.length)
    const changed = parts.map((part) => Buffer.from(part))
    ;(changed[2] as Buffer)[100] ^= 1
    expect(cbcKey(keys[0] as Buffer).tag(changed).equals(cbcKey(keys[0] as Buffer).tag(parts))).toBe(false)
  })

  it("refuses a key that is not 64 bytes", () => {
    expect(() => cbcKey(randomBytes(32))).toThrow(RangeError)
  })
})

describe("AES-256-CBC decryption", () => {
  it("equals createDecipheriv's for 1 to 40 blocks, with keys used in turn (no state kept between calls)", () => {
    const keys = Array.from({ length: 3 }, () => randomBytes(64))
    for (let blocks = 1; blocks <= 40; blocks++) {
      for (const key of keys) {
        const iv = randomBytes(16)
        const ciphertext = randomBytes(blocks * 16)
        expect(cbcKey(key).decrypt(iv, ciphertext)?.equals(reference.decrypt(key, iv, ciphertext))).toBe(true)
      }
    }
  })

  it("opens what createCipheriv sealed, and leaves the ciphertext as it was", () => {
    const key = randomBytes(64)
    const iv = randomBytes(16)
    const text = Buffer.from("The session's claims, é and € included, padded by the cipher.")
    const cipher = createCipheriv("aes-256-cbc", key.subarray(32, 64), iv)
    const ciphertext = Buffer.concat([cipher.update(text), cipher.final()])
    const copy = Buffer.from(ciphertext)
    const padded = cbcKey(key).decrypt(iv, ciphertext) as Buffer
    expect(padded.subarray(0, text.length).equals(text)).toBe(true)
    expect(padded.subarray(text.length).every((byte) => byte === padded.length - text.length)).toBe(true)
    expect(ciphertext.equals(copy)).toBe(true)
  })

  it("refuses anything but whole blocks and a 16-byte IV, and decrypts correctly right after", () => {
    const key = randomBytes(64)
    const iv = randomBytes(16)
    for (const length of [0, 1, 15, 17, 31, 33]) expect(cbcKey(key).decrypt(iv, randomBytes(length))).toBeNull()
    expect(cbcKey(key).decrypt(randomBytes(12), randomBytes(32))).toBeNull()
    const ciphertext = randomBytes(48)
    expect(cbcKey(key).decrypt(iv, ciphertext)?.equals(reference.decrypt(key, iv, ciphertext))).toBe(true)
  })
})
