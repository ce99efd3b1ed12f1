/**
 * lib/session/chunks.ts: splitting a session cookie over the 4096-byte Set-Cookie limit into
 * `<name>.0`, `<name>.1`, ..., putting it back together, and clearing stale chunks.
 */
import { parse, serialize } from "cookie"
import { MAX_CHUNKS, MAX_SET_COOKIE_LENGTH, clearChunked, presentNames, readChunked, writeChunked, type CookieJar } from "../../../lib/session/chunks.js"
import { decode, encode } from "../../../lib/jwt/index.js"
import type { Cookie, CookieOption } from "../../../lib/types.js"
import { SECRET } from "../../helpers/app.js"
import { SALT, SECURE_SALT } from "./support.js"

const NAME = SALT
const plain: CookieOption = { name: NAME, options: { httpOnly: true, sameSite: "lax", path: "/", secure: false } }
const secure: CookieOption = { name: SECURE_SALT, options: { httpOnly: true, sameSite: "lax", path: "/", secure: true, domain: "example.com" } }
const EXPIRES = new Date("2031-01-01T00:00:00Z")

const lineBytes = (cookie: Cookie) => Buffer.byteLength(serialize(cookie.name, cookie.value, cookie.options))
/** What a browser would send back: the cookies that are set (not cleared), as a jar. */
const jarOf = (cookies: Cookie[]): CookieJar => Object.fromEntries(cookies.filter((c) => c.options.maxAge !== 0).map((c) => [c.name, c.value]))
const cleared = (cookies: Cookie[]) => cookies.filter((c) => c.value === "" && c.options.maxAge === 0 && c.options.expires?.getTime() === 0).map((c) => c.name).sort()
const chunkJar = (name: string, parts: string[]): Record<string, string> => Object.fromEntries(parts.map((part, i) => [`${name}.${i}`, part]))

async function bigToken(padding: number, salt = NAME): Promise<string> {
  return encode({ token: { sub: "big", pad: "x".repeat(padding) }, secret: SECRET, salt })
}

describe("writeChunked", () => {
  test("a small value is one cookie with the expiry, and chunks the request carried are cleared", () => {
    const out = writeChunked(plain, "small-value", { [`${NAME}.0`]: "a", [`${NAME}.1`]: "b", unrelated: "z" }, EXPIRES)
    const set = out.filter((c) => c.options.maxAge !== 0)
    expect(set).toEqual([{ name: NAME, value: "small-value", options: { ...plain.options, expires: EXPIRES } }])
    expect(cleared(out)).toEqual([`${NAME}.0`, `${NAME}.1`])
    expect(out).toHaveLength(3)
  })

  test("a small value with nothing to clear is exactly one cookie; the option object is not modified", () => {
    const before = JSON.stringify(plain)
    expect(writeChunked(plain, "v", {})).toEqual([{ name: NAME, value: "v", options: plain.options }])
    expect(JSON.stringify(plain)).toBe(before)
  })

  test.each([
    ["plain options", plain, NAME],
    ["Secure + Domain options", secure, SECURE_SALT],
  ])("a large sealed token (%s) is split into <name>.0..N, every Set-Cookie line <= 4096 bytes, and reassembles", async (_label, option, salt) => {
    const token = await bigToken(9000, salt)
    const out = writeChunked(option, token, {}, EXPIRES)
    expect(out.length).toBeGreaterThanOrEqual(3)
    expect(out.map((c) => c.name)).toEqual(out.map((_, i) => `${option.name}.${i}`))
    for (const cookie of out) {
      expect(lineBytes(cookie)).toBeLessThanOrEqual(MAX_SET_COOKIE_LENGTH)
      expect(cookie.options.expires).toEqual(EXPIRES)
    }
    // Chunks are filled: no more of them than needed with a ~100-byte attribute overhead.
    expect(out.length).toBeLessThanOrEqual(Math.ceil(token.length / 3900))
    const value = readChunked(jarOf(out), option.name)
    expect(value).toBe(token)
    expect(await decode({ token: value, secret: SECRET, salt })).toMatchObject({ sub: "big" })
  })

  test("the limit is exact: a value whose single line is 4096 bytes stays whole, one byte more is chunked", () => {
    const overhead = serialize(NAME, "", { ...plain.options, expires: EXPIRES }).length
    const fits = "a".repeat(MAX_SET_COOKIE_LENGTH - overhead)
    const one = writeChunked(plain, fits, {}, EXPIRES)
    expect(one.map((c) => c.name)).toEqual([NAME])
    expect(lineBytes(one[0]!)).toBe(MAX_SET_COOKIE_LENGTH)
    const two = writeChunked(plain, `${fits}a`, {}, EXPIRES)
    expect(two.map((c) => c.name)).toEqual([`${NAME}.0`, `${NAME}.1`])
    for (const cookie of two) expect(lineBytes(cookie)).toBeLessThanOrEqual(MAX_SET_COOKIE_LENGTH)
    expect(readChunked(jarOf(two), NAME)).toBe(`${fits}a`)
  })

  test("the largest session (10 chunks) is written with every line <= 4096 bytes and reads back", () => {
    const value = "v".repeat(10 * 3900)
    const out = writeChunked(secure, value, {}, EXPIRES)
    expect(out.map((c) => c.name)).toEqual(Array.from({ length: 10 }, (_, i) => `${secure.name}.${i}`))
    for (const cookie of out) expect(lineBytes(cookie)).toBeLessThanOrEqual(MAX_SET_COOKIE_LENGTH)
    expect(readChunked(jarOf(out), secure.name)).toBe(value)
  })

  test("a session needing more chunks than are read back is refused when written, not silently lost", () => {
    const value = "v".repeat(12 * 4050)
    expect(() => writeChunked(secure, value, {}, EXPIRES)).toThrow(expect.objectContaining({ type: "SessionTokenError", message: expect.stringMatching(/too large/) }))
  })

  test("every Set-Cookie line stays <= 4096 bytes even when the value needs percent-encoding (a custom session.seal)", () => {
    // `cookie.serialize` (used for the real Set-Cookie lines, lib/core/set-cookie.ts) percent-encodes
    // the value; standard base64 output of a custom seal contains '+', '/' and '='.
    const value = Buffer.alloc(9000, 0xfb).toString("base64") + "=="
    expect(value).toMatch(/[+/]/)
    const out = writeChunked(plain, value, {}, EXPIRES)
    for (const cookie of out) expect(lineBytes(cookie)).toBeLessThanOrEqual(MAX_SET_COOKIE_LENGTH)
    const header = out.map((c) => serialize(c.name, c.value).split(";")[0]).join("; ")
    expect(readChunked(parse(header), NAME)).toBe(value)
  })

  test("shrinking from 4 chunks to 2 clears .2 and .3 only", async () => {
    const before = writeChunked(plain, await bigToken(10000), {})
    expect(before).toHaveLength(4)
    const after = writeChunked(plain, await bigToken(4000), jarOf(before))
    expect(after.filter((c) => c.options.maxAge !== 0).map((c) => c.name)).toEqual([`${NAME}.0`, `${NAME}.1`])
    expect(cleared(after)).toEqual([`${NAME}.2`, `${NAME}.3`])
  })

  test("shrinking from chunks to a single cookie clears every chunk", async () => {
    const before = writeChunked(plain, await bigToken(9000), {})
    const token = await bigToken(10)
    const after = writeChunked(plain, token, jarOf(before))
    expect(after.filter((c) => c.options.maxAge !== 0).map((c) => c.name)).toEqual([NAME])
    expect(cleared(after)).toEqual(before.map((c) => c.name).sort())
    // What the browser keeps afterwards reads as the new token.
    expect(readChunked({ ...jarOf(before), ...jarOf(after), ...Object.fromEntries(cleared(after).map((n) => [n, undefined])) }, NAME)).toBe(token)
  })

  test("growing from a single cookie to chunks clears the single cookie", async () => {
    const after = writeChunked(plain, await bigToken(9000), { [NAME]: "old-whole-value" })
    expect(cleared(after)).toEqual([NAME])
    expect(after.filter((c) => c.options.maxAge !== 0).every((c) => c.name.startsWith(`${NAME}.`))).toBe(true)
  })

  test("clearing cookies keep the option's attributes (path, secure, domain) so the browser matches them", () => {
    const out = writeChunked(secure, "v", { [`${SECURE_SALT}.0`]: "a" }, EXPIRES)
    const clearing = out.find((c) => c.name === `${SECURE_SALT}.0`)!
    expect(clearing.options).toMatchObject({ path: "/", secure: true, domain: "example.com", maxAge: 0, expires: new Date(0) })
  })

  test("cookies that merely share the prefix are not cleared", () => {
    const out = writeChunked(plain, "v", { [`${NAME}.x`]: "1", [`${NAME}.-1`]: "1", [`${NAME}-other`]: "1", [`${NAME}.0.1`]: "1", "authjs.csrf-token": "1" })
    expect(cleared(out)).toEqual([])
  })
})

describe("readChunked", () => {
  test("the whole cookie alone is returned; an empty jar is undefined", () => {
    expect(readChunked({ [NAME]: "whole" }, NAME)).toBe("whole")
    expect(readChunked({}, NAME)).toBeUndefined()
    expect(readChunked({ other: "x" }, NAME)).toBeUndefined()
  })

  test("chunks are joined in index order, whatever the key order of the jar", () => {
    expect(readChunked(chunkJar(NAME, ["a", "b", "c"]), NAME)).toBe("abc")
    const reordered: CookieJar = { [`${NAME}.2`]: "c", [`${NAME}.0`]: "a", [`${NAME}.1`]: "b" }
    expect(Object.keys(reordered)[0]).toBe(`${NAME}.2`)
    expect(readChunked(reordered, NAME)).toBe("abc")
  })

  test("a missing middle chunk never yields a token: the later chunk is not joined on", async () => {
    const token = await bigToken(9000)
    const jar: Record<string, string | undefined> = { ...jarOf(writeChunked(plain, token, {})) }
    const third = jar[`${NAME}.2`]!
    delete jar[`${NAME}.1`]
    const value = readChunked(jar, NAME)
    expect(value === undefined || !value.includes(third)).toBe(true)
    expect(await decode({ token: value, secret: SECRET, salt: NAME })).toBeNull()
    // ...and every chunk left is named for clearing.
    expect(presentNames(jar, NAME).sort()).toEqual(Object.keys(jar).sort())
  })

  test("foreign names (.x, .-1, .01) are not chunks", () => {
    const jar = { ...chunkJar(NAME, ["a", "b"]), [`${NAME}.x`]: "X", [`${NAME}.-1`]: "M", [`${NAME}.01`]: "Z" }
    expect(readChunked(jar, NAME)).toBe("ab")
    expect(readChunked({ [`${NAME}.x`]: "X", [`${NAME}.-1`]: "M", [`${NAME}.01`]: "Z" }, NAME)).toBeUndefined()
    expect(readChunked({ [NAME]: "whole", [`${NAME}.x`]: "X", [`${NAME}.01`]: "Z" }, NAME)).toBe("whole")
  })

  test("the whole cookie and chunks together are undefined (conflict)", () => {
    expect(readChunked({ [NAME]: "whole", ...chunkJar(NAME, ["a", "b"]) }, NAME)).toBeUndefined()
    expect(readChunked({ [NAME]: "whole", [`${NAME}.0`]: "a" }, NAME)).toBeUndefined()
  })

  test(`up to ${MAX_CHUNKS} chunks are read; more than ${MAX_CHUNKS} is undefined`, () => {
    expect(MAX_CHUNKS).toBe(10)
    const ten = Array.from({ length: 10 }, (_, i) => `p${i}`)
    expect(readChunked(chunkJar(NAME, ten), NAME)).toBe(ten.join(""))
    expect(readChunked(chunkJar(NAME, [...ten, "p10"]), NAME)).toBeUndefined()
  })

  test("a jar parsed by cookie.parse (null prototype) works, and names are exact, not prefixes", () => {
    const jar = parse(`${NAME}.0=a; ${NAME}.1=b; ${NAME}x.0=nope`)
    expect(readChunked(jar, NAME)).toBe("ab")
    expect(readChunked(jar, "authjs")).toBeUndefined()
  })
})

describe("presentNames and clearChunked", () => {
  test("presentNames lists the cookie and its numeric chunks, nothing else", () => {
    const jar = { [NAME]: "w", ...chunkJar(NAME, ["a", "b", "c"]), [`${NAME}.x`]: "1", [`${NAME}.-1`]: "1", [`${NAME}-other`]: "1", other: "1" }
    expect(presentNames(jar, NAME).sort()).toEqual([NAME, `${NAME}.0`, `${NAME}.1`, `${NAME}.2`].sort())
    expect(presentNames({ other: "1" }, NAME)).toEqual([])
  })

  test("clearChunked clears the whole cookie and every chunk present, with maxAge 0 and an epoch expiry", () => {
    const out = clearChunked(secure, { [SECURE_SALT]: "w", ...chunkJar(SECURE_SALT, ["a", "b"]), other: "1" })
    expect(out.map((c) => c.name).sort()).toEqual([SECURE_SALT, `${SECURE_SALT}.0`, `${SECURE_SALT}.1`].sort())
    for (const cookie of out) {
      expect(cookie.value).toBe("")
      expect(cookie.options).toEqual({ ...secure.options, maxAge: 0, expires: new Date(0) })
    }
    expect(clearChunked(plain, { other: "1" })).toEqual([])
  })
})
