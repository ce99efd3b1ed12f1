/**
 * Wire compatibility with Auth.js v5 (@auth/core/jwt) and with jose, and key derivation
 * (lib/jwt/keys.ts) checked against a manual HKDF computation.
 */
import { hkdfSync } from "node:crypto"
import { decode as authDecode, encode as authEncode } from "@auth/core/jwt"
import { calculateJwkThumbprint, base64url, compactDecrypt } from "jose"
import { decode, encode } from "../../../lib/jwt/index.js"
import { deriveKey } from "../../../lib/jwt/keys.js"
import { OTHER_SECRET, SECRET } from "../../helpers/app.js"
import { SALT, SECURE_SALT, headerOf, joseJwe, manualKey, manualKid, nowSec, validClaims } from "./support.js"

const SALTS = [SALT, SECURE_SALT]
const SECRETS: [string, string | string[]][] = [
  ["a string secret", SECRET],
  ["a list of secrets", [SECRET, OTHER_SECRET]],
]
const CLAIMS = { sub: "user-1", name: "Alice", email: "alice@example.com", picture: "https://img.example/a.png" }

describe.each(SALTS)("salt %s", (salt) => {
  describe.each(SECRETS)("%s", (_label, secret) => {
    test("a token from @auth/core's encode opens with our decode", async () => {
      const sealed = await authEncode({ token: CLAIMS, secret, salt, maxAge: 3600 })
      const decoded = await decode({ token: sealed, secret, salt })
      const theirs = await authDecode({ token: sealed, secret, salt })
      expect(decoded).toMatchObject(CLAIMS)
      expect(decoded).toEqual(theirs)
      expect(decoded?.exp).toBe((decoded?.iat as number) + 3600)
    })

    test("a token from our encode opens with @auth/core's decode", async () => {
      const sealed = await encode({ token: { ...CLAIMS, jti: "jti-ours" }, secret, salt, maxAge: 3600 })
      const theirs = await authDecode({ token: sealed, secret, salt })
      expect(theirs).toMatchObject({ ...CLAIMS, jti: "jti-ours" })
      expect(theirs?.exp).toBe((theirs?.iat as number) + 3600)
    })

    test("both produce the same protected header (alg, enc, kid) for the same secret and salt", async () => {
      const ours = await encode({ token: CLAIMS, secret, salt })
      const theirs = await authEncode({ token: CLAIMS, secret, salt })
      expect(headerOf(ours)).toEqual(headerOf(theirs))
    })
  })

  test("rotation across implementations: a token sealed by @auth/core with the old secret opens here with [new, old]", async () => {
    const sealed = await authEncode({ token: CLAIMS, secret: OTHER_SECRET, salt })
    expect(await decode({ token: sealed, secret: [SECRET, OTHER_SECRET], salt })).toMatchObject(CLAIMS)
    expect(await decode({ token: sealed, secret: SECRET, salt })).toBeNull()
  })

  test("rotation across implementations: our token sealed with the old secret opens in @auth/core with [new, old]", async () => {
    const sealed = await encode({ token: CLAIMS, secret: OTHER_SECRET, salt })
    expect(await authDecode({ token: sealed, secret: [SECRET, OTHER_SECRET], salt })).toMatchObject(CLAIMS)
  })
})

test("a token sealed under one salt opens under neither implementation with the other salt", async () => {
  const sealed = await encode({ token: CLAIMS, secret: SECRET, salt: SALT })
  expect(await decode({ token: sealed, secret: SECRET, salt: SECURE_SALT })).toBeNull()
  await expect(authDecode({ token: sealed, secret: SECRET, salt: SECURE_SALT })).rejects.toThrow()
})

describe("A256GCM tokens (older Auth.js releases)", () => {
  test("a jose-built dir/A256GCM token with the 32-byte derived key and its sha256 thumbprint opens", async () => {
    const key = manualKey(SECRET, SALT, 32)
    const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha256")
    const token = await joseJwe({ alg: "dir", enc: "A256GCM", kid }, validClaims({ sub: "gcm-user" }), key)
    expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject({ sub: "gcm-user" })
    // @auth/core agrees the token is genuine.
    expect(await authDecode({ token, secret: SECRET, salt: SALT })).toMatchObject({ sub: "gcm-user" })
  })

  test("an A256GCM token without a kid opens with any secret of the list", async () => {
    const token = await joseJwe({ alg: "dir", enc: "A256GCM" }, validClaims({ sub: "gcm-user" }), manualKey(OTHER_SECRET, SALT, 32))
    expect(await decode({ token, secret: [SECRET, OTHER_SECRET], salt: SALT })).toMatchObject({ sub: "gcm-user" })
    expect(await decode({ token, secret: SECRET, salt: SALT })).toBeNull()
  })

  test("an A256GCM token whose kid is the sha512 thumbprint (wrong digest for a 32-byte key) is null", async () => {
    const key = manualKey(SECRET, SALT, 32)
    const wrongKid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha512")
    const token = await joseJwe({ alg: "dir", enc: "A256GCM", kid: wrongKid }, validClaims(), key)
    expect(await decode({ token, secret: SECRET, salt: SALT })).toBeNull()
  })
})

describe("kid selection", () => {
  test("a kid matching no configured secret is null, even when the key itself would fit", async () => {
    const key = manualKey(SECRET, SALT, 64)
    const token = await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: "not-a-thumbprint" }, validClaims(), key)
    expect(await decode({ token, secret: [SECRET, OTHER_SECRET], salt: SALT })).toBeNull()
  })

  test("a kid naming another secret's key while sealed with this one is null", async () => {
    const key = manualKey(SECRET, SALT, 64)
    const otherKid = await manualKid(manualKey(OTHER_SECRET, SALT, 64))
    const token = await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: otherKid }, validClaims(), key)
    expect(await decode({ token, secret: [SECRET, OTHER_SECRET], salt: SALT })).toBeNull()
  })

  test("the correct kid opens with the matching secret anywhere in the list", async () => {
    const key = manualKey(OTHER_SECRET, SALT, 64)
    const token = await joseJwe({ alg: "dir", enc: "A256CBC-HS512", kid: await manualKid(key) }, validClaims({ sub: "k" }), key)
    expect(await decode({ token, secret: [SECRET, "x".repeat(40), OTHER_SECRET], salt: SALT })).toMatchObject({ sub: "k" })
  })
})

describe("key derivation", () => {
  test.each(SALTS)("the A256CBC-HS512 key is HKDF-SHA256(secret, salt, info) of 64 bytes, kid its sha512 thumbprint (salt %s)", async (salt) => {
    const expected = Buffer.from(hkdfSync("sha256", SECRET, salt, `Auth.js Generated Encryption Key (${salt})`, 64))
    const derived = deriveKey("A256CBC-HS512", SECRET, salt)
    expect(derived.key).toHaveLength(64)
    expect(derived.key.equals(expected)).toBe(true)
    expect(derived.kid).toBe(await calculateJwkThumbprint({ kty: "oct", k: expected.toString("base64url") }, "sha512"))
  })

  test.each(SALTS)("the A256GCM key is HKDF-SHA256(secret, salt, info) of 32 bytes, kid its sha256 thumbprint (salt %s)", async (salt) => {
    const expected = Buffer.from(hkdfSync("sha256", SECRET, salt, `Auth.js Generated Encryption Key (${salt})`, 32))
    const derived = deriveKey("A256GCM", SECRET, salt)
    expect(derived.key).toHaveLength(32)
    expect(derived.key.equals(expected)).toBe(true)
    expect(derived.kid).toBe(await calculateJwkThumbprint({ kty: "oct", k: expected.toString("base64url") }, "sha256"))
  })

  test("different secrets and salts give different keys; the same inputs give the same key", () => {
    const a = deriveKey("A256CBC-HS512", SECRET, SALT)
    expect(deriveKey("A256CBC-HS512", SECRET, SALT).key.equals(a.key)).toBe(true)
    expect(deriveKey("A256CBC-HS512", OTHER_SECRET, SALT).key.equals(a.key)).toBe(false)
    expect(deriveKey("A256CBC-HS512", SECRET, SECURE_SALT).key.equals(a.key)).toBe(false)
  })

  test("the key cache never confuses two (secret, salt) pairs, even ones that differ only in where a NUL falls", () => {
    const manual = (secret: string, salt: string) => Buffer.from(hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 32))
    // Derived in this order, the second pair must not be served the first pair's cached key.
    const first = deriveKey("A256GCM", "nul-secret-b\u0000c", "nul-salt-a")
    const second = deriveKey("A256GCM", "c", "nul-salt-a\u0000nul-secret-b")
    expect(first.key.equals(manual("nul-secret-b\u0000c", "nul-salt-a"))).toBe(true)
    expect(second.key.equals(manual("c", "nul-salt-a\u0000nul-secret-b"))).toBe(true)
  })

  test("our token decrypts with jose using the manually derived key (byte-level JWE compatibility)", async () => {
    const sealed = await encode({ token: { sub: "jose" }, secret: SECRET, salt: SALT })
    const { plaintext, protectedHeader } = await compactDecrypt(sealed, manualKey(SECRET, SALT, 64))
    expect(protectedHeader).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" })
    const claims = JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>
    expect(claims).toMatchObject({ sub: "jose" })
    expect(claims.exp).toBeGreaterThan(nowSec())
  })
})
