/**
 * SESS-01..04 at unit level: tampered, truncated and substituted tokens all decode to null (never
 * throw). Substituted tokens are built with jose (or node:crypto) under the REAL derived key, so
 * the only thing wrong with them is the feature under test.
 */
import { createCipheriv, randomBytes } from "node:crypto"
import { CompactEncrypt, SignJWT, UnsecuredJWT, compactDecrypt } from "jose"
import { decode, encode } from "../../../lib/jwt/index.js"
import { MAX_TOKEN_LENGTH } from "../../../lib/jwt/codec.js"
import type { JWT } from "../../../lib/types.js"
import { SECRET } from "../../helpers/app.js"
import { SALT, cbcSeal, flipBit, headerOf, joseJwe, manualKey, manualKid, validClaims, withSegment } from "./support.js"

const open = (token: string) => decode({ token, secret: SECRET, salt: SALT })

let token: string
let cbcKey: Uint8Array
let gcmKey: Uint8Array
let cbcKid: string
let gcmKid: string

beforeAll(async () => {
  token = await encode({ token: { sub: "user-1", name: "Alice", email: "alice@example.com" }, secret: SECRET, salt: SALT })
  cbcKey = manualKey(SECRET, SALT, 64)
  gcmKey = manualKey(SECRET, SALT, 32)
  cbcKid = await manualKid(cbcKey)
  gcmKid = await manualKid(gcmKey)
})

test("baseline: the untouched token opens", async () => {
  expect(await open(token)).toMatchObject({ sub: "user-1" })
})

describe("SESS-01: one flipped bit anywhere", () => {
  const SEGMENTS: [string, number][] = [["header", 0], ["iv", 2], ["ciphertext", 3], ["tag", 4]]
  const POSITIONS: [string, (length: number) => number][] = [["first", () => 0], ["middle", (n) => Math.floor(n / 2)], ["last", (n) => n - 1]]
  for (const [segment, index] of SEGMENTS) {
    for (const [where, position] of POSITIONS) {
      test.each([0x01, 0x80])(`${segment}, ${where} byte, bit %p => null`, async (bit) => {
        const length = Buffer.from(token.split(".")[index] as string, "base64url").length
        const tampered = flipBit(token, index, position(length), bit)
        expect(tampered).not.toBe(token)
        expect(await open(tampered)).toBeNull()
      })
    }
  }

  test("a semantically identical header with different bytes (a space added) => null: the header is authenticated as sent", async () => {
    const header = JSON.stringify(headerOf(token)).replace(",", ", ")
    expect(await open(withSegment(token, 0, Buffer.from(header).toString("base64url")))).toBeNull()
  })

  test("ciphertext blocks swapped => null", async () => {
    const ct = Buffer.from(token.split(".")[3] as string, "base64url")
    const swapped = Buffer.concat([ct.subarray(16, 32), ct.subarray(0, 16), ct.subarray(32)])
    expect(await open(withSegment(token, 3, swapped.toString("base64url")))).toBeNull()
  })
})

describe("SESS-02: truncated and malformed tokens", () => {
  const cases: [string, (t: string) => string][] = [
    ["4 segments (tag dropped)", (t) => t.split(".").slice(0, 4).join(".")],
    ["6 segments", (t) => `${t}.AAAA`],
    ["a trailing dot", (t) => `${t}.`],
    ["the header emptied", (t) => withSegment(t, 0, "")],
    ["a non-empty encrypted key", (t) => withSegment(t, 1, "AAAA")],
    ["the iv emptied", (t) => withSegment(t, 2, "")],
    ["the ciphertext emptied", (t) => withSegment(t, 3, "")],
    ["the tag emptied", (t) => withSegment(t, 4, "")],
    ["the empty string", () => ""],
    ["5000 times 'a'", () => "a".repeat(5000)],
    ["five dots", () => "....."],
    ["the token in double quotes", (t) => `"${t}"`],
    ["a leading space", (t) => ` ${t}`],
    ["the last character removed", (t) => t.slice(0, -1)],
    ["cut in half", (t) => t.slice(0, Math.floor(t.length / 2))],
    ["a padded tag (base64 '=')", (t) => `${t}==`],
    ["a 15-byte iv", (t) => withSegment(t, 2, randomBytes(15).toString("base64url"))],
    ["a 17-byte iv", (t) => withSegment(t, 2, randomBytes(17).toString("base64url"))],
    ["a 12-byte iv (GCM size) under CBC", (t) => withSegment(t, 2, randomBytes(12).toString("base64url"))],
    ["a 16-byte tag (GCM size) under CBC", (t) => withSegment(t, 4, Buffer.from(t.split(".")[4] as string, "base64url").subarray(0, 16).toString("base64url"))],
    ["a 33-byte tag", (t) => withSegment(t, 4, Buffer.concat([Buffer.from(t.split(".")[4] as string, "base64url"), Buffer.from([0])]).toString("base64url"))],
    ["a ciphertext that is not a whole number of blocks", (t) => withSegment(t, 3, Buffer.from(t.split(".")[3] as string, "base64url").subarray(1).toString("base64url"))],
    ["a header that is not JSON", (t) => withSegment(t, 0, Buffer.from("not json").toString("base64url"))],
    ["a header that is a JSON array", (t) => withSegment(t, 0, Buffer.from('["dir","A256CBC-HS512"]').toString("base64url"))],
  ]
  test.each(cases)("%s => null", async (_label, make) => {
    expect(await open(make(token))).toBeNull()
  })

  test("a genuine token longer than MAX_TOKEN_LENGTH (40000) is refused; a large one below it opens", async () => {
    const big = await encode({ token: { sub: "x", pad: "p".repeat(31_000) }, secret: SECRET, salt: SALT })
    expect(big.length).toBeGreaterThan(MAX_TOKEN_LENGTH)
    expect(await open(big)).toBeNull()
    const large = await encode({ token: { sub: "x", pad: "p".repeat(25_000) }, secret: SECRET, salt: SALT })
    expect(large.length).toBeLessThan(MAX_TOKEN_LENGTH)
    expect(await open(large)).toMatchObject({ sub: "x" })
  })

  test("a genuine token whose header is over the size limit is refused; a moderately padded header opens", async () => {
    const huge = await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: cbcKid, pad: "h".repeat(1000) }, validClaims(), cbcKey)
    expect((await compactDecrypt(huge, cbcKey)).protectedHeader.pad).toHaveLength(1000)
    expect(await open(huge)).toBeNull()
    const padded = await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: cbcKid, pad: "h".repeat(300) }, validClaims({ sub: "padded" }), cbcKey)
    expect(await open(padded)).toMatchObject({ sub: "padded" })
  })
})

/** AES-256-GCM under node:crypto with any iv and tag length (jose refuses to make these). */
function gcmSeal(header: Record<string, unknown>, claims: Record<string, unknown>, key: Uint8Array, ivLength: number, tagLength: number): string {
  const protectedHeader = Buffer.from(JSON.stringify(header)).toString("base64url")
  const iv = randomBytes(ivLength)
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: tagLength })
  cipher.setAAD(Buffer.from(protectedHeader, "ascii"))
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(claims), "utf8"), cipher.final()])
  return [protectedHeader, "", iv.toString("base64url"), ciphertext.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".")
}

describe("SESS-03: A256GCM shapes", () => {
  test("control: a node:crypto GCM token with a 12-byte iv and 16-byte tag opens", async () => {
    expect(await open(gcmSeal({ alg: "dir", enc: "A256GCM", kid: gcmKid }, validClaims({ sub: "gcm" }), gcmKey, 12, 16))).toMatchObject({ sub: "gcm" })
  })

  test.each([
    ["a 16-byte iv", 16, 16],
    ["an 8-byte iv", 8, 16],
    ["a 12-byte tag", 12, 12],
    ["a 4-byte tag", 12, 4],
  ])("a correctly authenticated GCM token with %s => null", async (_label, ivLength, tagLength) => {
    expect(await open(gcmSeal({ alg: "dir", enc: "A256GCM", kid: gcmKid }, validClaims(), gcmKey, ivLength, tagLength))).toBeNull()
  })
})

describe("SESS-04: algorithm and header substitution (real key)", () => {
  test("control: the same jose construction with the allowed header opens", async () => {
    expect(await open(await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: cbcKid }, validClaims({ sub: "ok" }), cbcKey))).toMatchObject({ sub: "ok" })
  })

  test("enc A128CBC-HS256 => null", async () => {
    expect(await open(await joseJwe({ alg: "dir", enc: "A128CBC-HS256", kid: gcmKid }, validClaims(), gcmKey))).toBeNull()
    expect(await open(await joseJwe({ alg: "dir", enc: "A128CBC-HS256" }, validClaims(), gcmKey))).toBeNull()
  })

  test("alg A256KW (a wrapped content key) => null", async () => {
    const kw = await joseJwe({ alg: "A256KW", enc: "A256CBC-HS512", kid: gcmKid }, validClaims(), gcmKey)
    expect(kw.split(".")[1]).not.toBe("")
    expect(await open(kw)).toBeNull()
  })

  test("alg PBES2-HS512+A256KW with a huge p2c => null (refused before any PBES2 work)", async () => {
    const pbes2 = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(validClaims())))
      .setProtectedHeader({ alg: "PBES2-HS512+A256KW", enc: "A256CBC-HS512", kid: cbcKid })
      .setKeyManagementParameters({ p2c: 1000 })
      .encrypt(new TextEncoder().encode(SECRET))
    expect(await open(pbes2)).toBeNull()
    const header = { ...headerOf(pbes2), p2c: 2_147_483_647 }
    expect(await open(withSegment(pbes2, 0, Buffer.from(JSON.stringify(header)).toString("base64url")))).toBeNull()
  })

  test("zip DEF => null, although the token is otherwise genuine", async () => {
    const zipped = await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: cbcKid, zip: "DEF" }, validClaims({ sub: "zipped" }), cbcKey)
    const check = await compactDecrypt(zipped, cbcKey)
    expect(JSON.parse(new TextDecoder().decode(check.plaintext))).toMatchObject({ sub: "zipped" })
    expect(await open(zipped)).toBeNull()
  })

  test("crit => null, although the token is otherwise genuine", async () => {
    const crit = await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: cbcKid, crit: ["exp-ext"], "exp-ext": 1 }, validClaims(), cbcKey, { crit: { "exp-ext": true } })
    expect(headerOf(crit).crit).toEqual(["exp-ext"])
    expect(await open(crit)).toBeNull()
  })

  test("control: a node:crypto-sealed token with our exact header opens", async () => {
    expect(await open(cbcSeal({ alg: "dir", enc: "A256CBC-HS512", kid: cbcKid }, JSON.stringify(validClaims({ sub: "manual" })), cbcKey))).toMatchObject({ sub: "manual" })
  })

  test.each([
    ["zip DEF over an uncompressed payload", { alg: "dir", enc: "A256CBC-HS512", zip: "DEF" }],
    ["crit naming a present parameter", { alg: "dir", enc: "A256CBC-HS512", crit: ["exp-ext"], "exp-ext": 1 }],
    ["crit: []", { alg: "dir", enc: "A256CBC-HS512", crit: [] }],
    ["alg none", { alg: "none", enc: "A256CBC-HS512" }],
    ["alg DIR (case)", { alg: "DIR", enc: "A256CBC-HS512" }],
    ["alg A256KW with an empty key segment", { alg: "A256KW", enc: "A256CBC-HS512" }],
    ["no alg", { enc: "A256CBC-HS512" }],
    ["enc A256CBC-HS512 in lower case", { alg: "dir", enc: "a256cbc-hs512" }],
  ])("a correctly authenticated token whose header has %s => null", async (_label, header) => {
    expect(await open(cbcSeal({ ...header, kid: cbcKid }, JSON.stringify(validClaims()), cbcKey))).toBeNull()
  })

  test("a non-string kid => null", async () => {
    expect(await open(await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: 1 as unknown as string }, validClaims(), cbcKey))).toBeNull()
  })

  test.each([
    ["alg none", { alg: "none", enc: "A256CBC-HS512" }],
    ["alg DIR (case)", { alg: "DIR", enc: "A256CBC-HS512" }],
    ["no enc", { alg: "dir" }],
    ["enc A256cbc-hs512 (case)", { alg: "dir", enc: "a256cbc-hs512" }],
  ])("our token with its header replaced by %s => null", async (_label, header) => {
    expect(await open(withSegment(token, 0, Buffer.from(JSON.stringify({ ...header, kid: cbcKid })).toString("base64url")))).toBeNull()
  })

  test("an unsecured JWT (alg none) => null", async () => {
    const unsecured = new UnsecuredJWT(validClaims()).encode()
    expect(headerOf(unsecured).alg).toBe("none")
    expect(await open(unsecured)).toBeNull()
  })

  test("an HS256 JWS signed with the secret, or with the derived key => null", async () => {
    for (const key of [new TextEncoder().encode(SECRET), cbcKey]) {
      const jws = await new SignJWT(validClaims() as JWT).setProtectedHeader({ alg: "HS256" }).sign(key)
      expect(await open(jws)).toBeNull()
    }
  })

  test("a JWE under an all-zero key => null, with or without the real kid", async () => {
    const zero64 = new Uint8Array(64)
    expect(await open(await joseJwe({ alg: "dir", enc: "A256CBC-HS512" }, validClaims(), zero64))).toBeNull()
    expect(await open(await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: cbcKid }, validClaims(), zero64))).toBeNull()
    expect(await open(await joseJwe({ alg: "dir", enc: "A256GCM", kid: gcmKid }, validClaims(), new Uint8Array(32)))).toBeNull()
  })
})
