/**
 * Public `encode`/`decode` of gatehouse/jwt and the codec under them (lib/jwt/codec.ts):
 * claims, lifetimes, secret lists, the clock tolerance and payload validation.
 */
import { DEFAULT_MAX_AGE, decode, encode } from "../../../lib/jwt/index.js"
import { CLOCK_TOLERANCE, openToken, sealToken } from "../../../lib/jwt/codec.js"
import { InvalidOption, MissingSecretError } from "../../../lib/errors.js"
import type { JWT } from "../../../lib/types.js"
import { OTHER_SECRET, SECRET } from "../../helpers/app.js"
import { SALT, SECURE_SALT, headerOf, joseJwe, joseSealed, manualKey, manualKid, nowSec } from "./support.js"

const THIRD_SECRET = "third-secret-0d9c8b7a6f5e4d3c2b1a09f8e7d6c5b4"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("encode / decode round trip", () => {
  test("the claims come back, with unicode and nested values intact", async () => {
    const token = { sub: "user-1", name: "Zoë 🚀", email: "zoe@example.com", picture: null, roles: ["a", "b"], meta: { n: 1 } }
    const sealed = await encode({ token, secret: SECRET, salt: SALT })
    const decoded = await decode({ token: sealed, secret: SECRET, salt: SALT })
    expect(decoded).toMatchObject(token)
  })

  test("the token is a compact JWE: dir, A256CBC-HS512, the derived key's thumbprint as kid, no encrypted key", async () => {
    const sealed = await encode({ token: { sub: "x" }, secret: SECRET, salt: SALT })
    const parts = sealed.split(".")
    expect(parts).toHaveLength(5)
    expect(parts[1]).toBe("")
    expect(Buffer.from(parts[2] as string, "base64url")).toHaveLength(16)
    expect(Buffer.from(parts[4] as string, "base64url")).toHaveLength(32)
    expect(headerOf(sealed)).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: await manualKid(manualKey(SECRET, SALT, 64)) })
  })

  test("iat is now, exp is iat + 30 days by default, jti is a random UUID", async () => {
    const before = nowSec()
    const sealed = await encode({ token: { sub: "x" }, secret: SECRET, salt: SALT })
    const after = nowSec()
    const decoded = (await decode({ token: sealed, secret: SECRET, salt: SALT })) as JWT
    expect(DEFAULT_MAX_AGE).toBe(30 * 24 * 60 * 60)
    expect(decoded.iat).toBeGreaterThanOrEqual(before)
    expect(decoded.iat).toBeLessThanOrEqual(after)
    expect(decoded.exp).toBe((decoded.iat as number) + 2592000)
    expect(decoded.jti).toMatch(UUID)
    const again = (await decode({ token: await encode({ token: { sub: "x" }, secret: SECRET, salt: SALT }), secret: SECRET, salt: SALT })) as JWT
    expect(again.jti).toMatch(UUID)
    expect(again.jti).not.toBe(decoded.jti)
  })

  test("an empty or absent token seals the registered claims alone", async () => {
    const decoded = (await decode({ token: await encode({ secret: SECRET, salt: SALT }), secret: SECRET, salt: SALT })) as JWT
    expect(Object.keys(decoded).sort()).toEqual(["exp", "iat", "jti"])
  })

  test("a string jti is kept (the session keeps its id); a non-string one is replaced", async () => {
    const kept = (await decode({ token: await encode({ token: { jti: "session-1" }, secret: SECRET, salt: SALT }), secret: SECRET, salt: SALT })) as JWT
    expect(kept.jti).toBe("session-1")
    const replaced = (await decode({ token: await encode({ token: { jti: 42 } as unknown as JWT, secret: SECRET, salt: SALT }), secret: SECRET, salt: SALT })) as JWT
    expect(replaced.jti).toMatch(UUID)
  })

  test("maxAge sets exp; iat and exp given in the token are overwritten", async () => {
    const sealed = await encode({ token: { iat: 1, exp: 2 }, secret: SECRET, salt: SALT, maxAge: 60 })
    const decoded = (await decode({ token: sealed, secret: SECRET, salt: SALT })) as JWT
    expect(decoded.exp).toBe((decoded.iat as number) + 60)
    expect(Math.abs((decoded.iat as number) - nowSec())).toBeLessThanOrEqual(2)
  })
})

describe("secrets and salt", () => {
  test("a list of secrets: the first one seals", async () => {
    const sealed = await encode({ token: { sub: "x" }, secret: [SECRET, OTHER_SECRET], salt: SALT })
    expect(headerOf(sealed).kid).toBe(await manualKid(manualKey(SECRET, SALT, 64)))
    expect(await decode({ token: sealed, secret: SECRET, salt: SALT })).toMatchObject({ sub: "x" })
    expect(await decode({ token: sealed, secret: OTHER_SECRET, salt: SALT })).toBeNull()
  })

  test("every secret of the list is tried when opening, whatever its position", async () => {
    const sealed = await encode({ token: { sub: "x" }, secret: OTHER_SECRET, salt: SALT })
    for (const secret of [[OTHER_SECRET, SECRET], [SECRET, OTHER_SECRET], [SECRET, THIRD_SECRET, OTHER_SECRET]]) {
      expect(await decode({ token: sealed, secret, salt: SALT })).toMatchObject({ sub: "x" })
    }
    expect(await decode({ token: sealed, secret: [SECRET, THIRD_SECRET], salt: SALT })).toBeNull()
  })

  test("openToken reports which secret opened the token (rotation)", () => {
    const sealed = sealToken({ sub: "x" }, OTHER_SECRET, SALT, 60)
    expect(openToken(sealed, [OTHER_SECRET, SECRET], SALT)?.secretIndex).toBe(0)
    expect(openToken(sealed, [SECRET, OTHER_SECRET], SALT)?.secretIndex).toBe(1)
    expect(openToken(sealed, [SECRET, THIRD_SECRET, OTHER_SECRET], SALT)?.secretIndex).toBe(2)
    expect(openToken(sealed, [SECRET, THIRD_SECRET], SALT)).toBeNull()
  })

  test("without a kid, every secret is still tried in order", async () => {
    const key = manualKey(OTHER_SECRET, SALT, 64)
    const noKid = await joseJwe({ alg: "dir", enc: "A256CBC-HS512" }, { sub: "x", exp: nowSec() + 3600 }, key)
    expect(headerOf(noKid).kid).toBeUndefined()
    expect(openToken(noKid, [SECRET, THIRD_SECRET, OTHER_SECRET], SALT)?.secretIndex).toBe(2)
    expect(await decode({ token: noKid, secret: [SECRET, OTHER_SECRET], salt: SALT })).toMatchObject({ sub: "x" })
    expect(await decode({ token: noKid, secret: [SECRET, THIRD_SECRET], salt: SALT })).toBeNull()
  })

  test("another secret or another salt reads as null", async () => {
    const sealed = await encode({ token: { sub: "x" }, secret: SECRET, salt: SALT })
    expect(await decode({ token: sealed, secret: OTHER_SECRET, salt: SALT })).toBeNull()
    expect(await decode({ token: sealed, secret: SECRET, salt: SECURE_SALT })).toBeNull()
    expect(await decode({ token: sealed, secret: SECRET, salt: "authjs.csrf-token" })).toBeNull()
  })

  test.each([
    ["undefined", undefined],
    ["empty", ""],
    ["a number", 42],
  ])("a missing salt (%s) is InvalidOption, for encode and decode", async (_label, salt) => {
    await expect(encode({ token: {}, secret: SECRET, salt: salt as unknown as string })).rejects.toBeInstanceOf(InvalidOption)
    await expect(decode({ token: "a.b.c.d.e", secret: SECRET, salt: salt as unknown as string })).rejects.toBeInstanceOf(InvalidOption)
  })

  test.each([
    ["undefined", undefined],
    ["an empty string", ""],
    ["an empty list", []],
    ["a list of empty strings", ["", ""]],
  ])("no secret (%s) is MissingSecretError, for encode and decode", async (_label, secret) => {
    const encoding = encode({ token: {}, secret: secret as unknown as string, salt: SALT })
    await expect(encoding).rejects.toBeInstanceOf(MissingSecretError)
    await expect(encoding).rejects.toMatchObject({ type: "MissingSecret" })
    await expect(decode({ token: "a.b.c.d.e", secret: secret as unknown as string, salt: SALT })).rejects.toBeInstanceOf(MissingSecretError)
  })

  test("an empty or absent token decodes to null", async () => {
    expect(await decode({ token: "", secret: SECRET, salt: SALT })).toBeNull()
    expect(await decode({ secret: SECRET, salt: SALT })).toBeNull()
  })
})

describe("expiry and the 15-second clock tolerance", () => {
  test("an expired token is null; one expired by less than the tolerance is accepted", async () => {
    expect(CLOCK_TOLERANCE).toBe(15)
    const long = await encode({ token: { sub: "x" }, secret: SECRET, salt: SALT, maxAge: -60 })
    expect(await decode({ token: long, secret: SECRET, salt: SALT })).toBeNull()
    const recent = await encode({ token: { sub: "x" }, secret: SECRET, salt: SALT, maxAge: -5 })
    expect(await decode({ token: recent, secret: SECRET, salt: SALT })).toMatchObject({ sub: "x" })
  })

  test("exact boundary: exp = now - 14 opens, exp = now - 15 does not", () => {
    const sealed = sealToken({ sub: "x" }, SECRET, SALT, 100, 1_000_000)
    expect(openToken(sealed, [SECRET], SALT, 1_000_100)).not.toBeNull()
    expect(openToken(sealed, [SECRET], SALT, 1_000_114)).not.toBeNull()
    expect(openToken(sealed, [SECRET], SALT, 1_000_115)).toBeNull()
    expect(openToken(sealed, [SECRET], SALT, 2_000_000)).toBeNull()
  })

  test("a token without exp is null", async () => {
    const now = nowSec()
    expect(await decode({ token: await joseSealed({ sub: "x", iat: now, jti: "j" }, SECRET), secret: SECRET, salt: SALT })).toBeNull()
    // The same construction with exp opens, so the missing exp is what is refused.
    expect(await decode({ token: await joseSealed({ sub: "x", iat: now, jti: "j", exp: now + 60 }, SECRET), secret: SECRET, salt: SALT })).toMatchObject({ sub: "x" })
  })

  test.each([
    ["a numeric string", (now: number) => `{"sub":"x","exp":"${now + 3600}"}`],
    ["null", () => `{"sub":"x","exp":null}`],
    ["a boolean", () => `{"sub":"x","exp":true}`],
    ["an array", (now: number) => `{"sub":"x","exp":[${now + 3600}]}`],
    ["1e309 (Infinity once parsed)", () => `{"sub":"x","exp":1e309}`],
    ["an object", (now: number) => `{"sub":"x","exp":{"valueOf":${now + 3600}}}`],
  ])("exp as %s is null", async (_label, text) => {
    expect(await decode({ token: await joseSealed(text(nowSec()), SECRET), secret: SECRET, salt: SALT })).toBeNull()
  })

  test("iat or nbf more than 15 s in the future is refused; within the tolerance it is accepted", async () => {
    const now = nowSec()
    const open = async (claims: Record<string, unknown>) => decode({ token: await joseSealed({ sub: "x", exp: now + 3600, ...claims }, SECRET), secret: SECRET, salt: SALT })
    expect(await open({ iat: now + 120 })).toBeNull()
    expect(await open({ nbf: now + 120 })).toBeNull()
    expect(await open({ iat: now + 5 })).toMatchObject({ sub: "x" })
    expect(await open({ nbf: now + 5 })).toMatchObject({ sub: "x" })
    expect(await open({ nbf: now - 60, iat: now - 60 })).toMatchObject({ sub: "x" })
  })

  test("exact boundary: iat/nbf = now + 15 opens, now + 16 does not (codec, fixed clock)", async () => {
    const now = 1_000_000
    const open = async (claims: Record<string, unknown>) => openToken(await joseSealed({ exp: now + 3600, ...claims }, SECRET), [SECRET], SALT, now)
    expect(await open({ iat: now + 15 })).not.toBeNull()
    expect(await open({ iat: now + 16 })).toBeNull()
    expect(await open({ nbf: now + 15 })).not.toBeNull()
    expect(await open({ nbf: now + 16 })).toBeNull()
  })

  test.each([
    ["iat as a string", (now: number) => `{"exp":${now + 3600},"iat":"${now}"}`],
    ["nbf as a string", (now: number) => `{"exp":${now + 3600},"nbf":"${now}"}`],
    ["iat null", (now: number) => `{"exp":${now + 3600},"iat":null}`],
    ["nbf 1e309", (now: number) => `{"exp":${now + 3600},"nbf":1e309}`],
  ])("%s is null", async (_label, text) => {
    expect(await decode({ token: await joseSealed(text(nowSec()), SECRET), secret: SECRET, salt: SALT })).toBeNull()
  })
})

describe("the payload must be a JSON object", () => {
  test.each([
    ["a JSON string", JSON.stringify("hello")],
    ["a JSON number", "42"],
    ["JSON null", "null"],
    ["JSON true", "true"],
    ["an array holding valid claims", () => JSON.stringify([{ sub: "x", exp: nowSec() + 3600 }])],
    ["not JSON", "definitely not json"],
    ["empty", ""],
    ["truncated JSON", () => `{"sub":"x","exp":${nowSec() + 3600}`],
  ])("%s is null", async (_label, plaintext) => {
    const text = typeof plaintext === "function" ? plaintext() : plaintext
    expect(await decode({ token: await joseSealed(text, SECRET), secret: SECRET, salt: SALT })).toBeNull()
  })
})
