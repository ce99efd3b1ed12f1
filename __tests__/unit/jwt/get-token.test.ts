/**
 * `getToken` of gatehouse/jwt: where the token is read from (cookie, chunks, Bearer), the cookie
 * name and salt defaults, secret defaults from the environment, and request shapes.
 */
import { jest } from "@jest/globals"
import { encode, getToken } from "../../../lib/jwt/index.js"
import { writeChunked } from "../../../lib/session/chunks.js"
import { InvalidOption, MissingSecretError } from "../../../lib/errors.js"
import type { JWT, JWTDecodeParams } from "../../../lib/types.js"
import { OTHER_SECRET, SECRET } from "../../helpers/app.js"
import { SALT, SECURE_SALT } from "./support.js"

const ENV_KEYS = ["AUTH_SECRET", "NEXTAUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3", "AUTH_URL", "NEXTAUTH_URL"]
let savedEnv: Record<string, string | undefined>

beforeEach(() => {
  savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]))
  for (const key of ENV_KEYS) delete process.env[key]
})

afterEach(() => {
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete process.env[key]
    else process.env[key] = savedEnv[key]
  }
})

const seal = (claims: JWT, salt = SALT, secret: string = SECRET) => encode({ token: claims, secret, salt })
const withCookie = (cookie: string) => ({ headers: { cookie } })

describe("from the session cookie", () => {
  test("default name authjs.session-token, salted with that name", async () => {
    const token = await seal({ sub: "alice" })
    expect(await getToken({ req: withCookie(`other=1; authjs.session-token=${token}; x=y`), secret: SECRET })).toMatchObject({ sub: "alice" })
  })

  test("secureCookie: true reads __Secure-authjs.session-token (and only that)", async () => {
    const secure = await seal({ sub: "secure" }, SECURE_SALT)
    expect(await getToken({ req: withCookie(`__Secure-authjs.session-token=${secure}`), secret: SECRET, secureCookie: true })).toMatchObject({ sub: "secure" })
    const plain = await seal({ sub: "plain" })
    expect(await getToken({ req: withCookie(`authjs.session-token=${plain}`), secret: SECRET, secureCookie: true })).toBeNull()
    // The default (no AUTH_URL) is the plain name.
    expect(await getToken({ req: withCookie(`__Secure-authjs.session-token=${secure}`), secret: SECRET })).toBeNull()
  })

  test("the salt is the cookie name: a plain-salted token in the __Secure- cookie is null", async () => {
    const plain = await seal({ sub: "plain" })
    expect(await getToken({ req: withCookie(`__Secure-authjs.session-token=${plain}`), secret: SECRET, secureCookie: true })).toBeNull()
  })

  test("secureCookie defaults to true when AUTH_URL is https", async () => {
    process.env.AUTH_URL = "https://app.example.com/auth"
    const secure = await seal({ sub: "secure" }, SECURE_SALT)
    expect(await getToken({ req: withCookie(`__Secure-authjs.session-token=${secure}`), secret: SECRET })).toMatchObject({ sub: "secure" })
  })

  test("a custom cookieName is read and is the default salt", async () => {
    const token = await seal({ sub: "custom" }, "my.session")
    expect(await getToken({ req: withCookie(`my.session=${token}`), secret: SECRET, cookieName: "my.session" })).toMatchObject({ sub: "custom" })
  })

  test("a salt override opens a token sealed with that salt; without it the same cookie is null", async () => {
    const token = await seal({ sub: "salted" }, "custom-salt")
    const req = withCookie(`authjs.session-token=${token}`)
    expect(await getToken({ req, secret: SECRET, salt: "custom-salt" })).toMatchObject({ sub: "salted" })
    expect(await getToken({ req, secret: SECRET })).toBeNull()
  })

  test("an invalid or expired cookie is null, not an error", async () => {
    expect(await getToken({ req: withCookie("authjs.session-token=garbage"), secret: SECRET })).toBeNull()
    const expired = await encode({ token: { sub: "x" }, secret: SECRET, salt: SALT, maxAge: -3600 })
    expect(await getToken({ req: withCookie(`authjs.session-token=${expired}`), secret: SECRET })).toBeNull()
    expect(await getToken({ req: withCookie(`authjs.session-token=${await seal({ sub: "x" })}`), secret: OTHER_SECRET })).toBeNull()
  })

  test("no cookie and no Authorization header is null", async () => {
    expect(await getToken({ req: { headers: {} }, secret: SECRET })).toBeNull()
    expect(await getToken({ req: withCookie("unrelated=1"), secret: SECRET })).toBeNull()
  })
})

describe("from chunked cookies", () => {
  const option = { name: SALT, options: { httpOnly: true, sameSite: "lax" as const, path: "/" } }

  async function chunkedHeader(claims: JWT): Promise<{ token: string; pairs: string[] }> {
    const token = await seal(claims)
    const cookies = writeChunked(option, token, {})
    expect(cookies.length).toBeGreaterThan(1)
    return { token, pairs: cookies.map((c) => `${c.name}=${c.value}`) }
  }

  test("the chunks are put back together, in index order whatever the header order", async () => {
    const { token, pairs } = await chunkedHeader({ sub: "big", pad: "x".repeat(6000) })
    expect(await getToken({ req: withCookie(pairs.join("; ")), secret: SECRET })).toMatchObject({ sub: "big" })
    expect(await getToken({ req: withCookie([...pairs].reverse().join("; ")), secret: SECRET, raw: true })).toBe(token)
  })

  test("chunks next to an unchunked cookie of the same name are null (conflict), even if the whole one is valid", async () => {
    const { pairs } = await chunkedHeader({ sub: "big", pad: "x".repeat(6000) })
    const whole = await seal({ sub: "whole" })
    expect(await getToken({ req: withCookie([`authjs.session-token=${whole}`, ...pairs].join("; ")), secret: SECRET })).toBeNull()
  })

  test("a missing chunk makes the token unreadable (null)", async () => {
    const { pairs } = await chunkedHeader({ sub: "big", pad: "x".repeat(6000) })
    expect(await getToken({ req: withCookie(pairs.filter((_, i) => i !== 1).join("; ")), secret: SECRET })).toBeNull()
  })
})

describe("from Authorization: Bearer", () => {
  test("a bearer token is opened with the cookie name as salt", async () => {
    const token = await seal({ sub: "api" })
    expect(await getToken({ req: { headers: { authorization: `Bearer ${token}` } }, secret: SECRET })).toMatchObject({ sub: "api" })
  })

  test("the token is percent-decoded", async () => {
    expect(await getToken({ req: { headers: { authorization: "Bearer abc%2Edef%20g" } }, secret: SECRET, raw: true })).toBe("abc.def g")
  })

  test("malformed percent-encoding reads as no token (null), also with raw", async () => {
    for (const raw of [false, true] as const) {
      const result = await getToken({ req: { headers: { authorization: "Bearer %E0%A4%A" } }, secret: SECRET, raw: raw as true })
      expect(result).toBeNull()
    }
  })

  test("the session cookie wins over a bearer token", async () => {
    const cookie = await seal({ sub: "cookie" })
    const bearer = await seal({ sub: "bearer" })
    const req = { headers: { cookie: `authjs.session-token=${cookie}`, authorization: `Bearer ${bearer}` } }
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "cookie" })
  })

  test("a session cookie that does not open does not hide a valid bearer token", async () => {
    const bearer = await seal({ sub: "bearer" })
    const req = { headers: { cookie: "authjs.session-token=stale-or-foreign-value", authorization: `Bearer ${bearer}` } }
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "bearer" })
    // Both bad: nobody.
    const worse = { headers: { cookie: "authjs.session-token=stale", authorization: "Bearer also-bad" } }
    expect(await getToken({ req: worse, secret: SECRET })).toBeNull()
  })

  test("other schemes are ignored", async () => {
    const token = await seal({ sub: "api" })
    expect(await getToken({ req: { headers: { authorization: `Basic ${token}` } }, secret: SECRET })).toBeNull()
    expect(await getToken({ req: { headers: { authorization: `Bearer` } }, secret: SECRET })).toBeNull()
  })
})

describe("options", () => {
  test("raw: true returns the string as found, without opening it (no secret needed)", async () => {
    const token = await seal({ sub: "raw" })
    expect(await getToken({ req: withCookie(`authjs.session-token=${token}`), raw: true })).toBe(token)
    expect(await getToken({ req: withCookie("authjs.session-token=not-a-jwe"), raw: true })).toBe("not-a-jwe")
  })

  test("a custom decode receives the token, secret and salt, and its result is returned", async () => {
    const calls: JWTDecodeParams[] = []
    const custom = async (params: JWTDecodeParams) => {
      calls.push(params)
      return { sub: "custom", from: params.token }
    }
    const result = await getToken({ req: withCookie("authjs.session-token=opaque-value"), secret: SECRET, decode: custom })
    expect(result).toEqual({ sub: "custom", from: "opaque-value" })
    expect(calls).toEqual([{ token: "opaque-value", secret: SECRET, salt: SALT }])
  })

  test("a custom decode that throws gives null, and the logger's debug hears about it", async () => {
    const debug = jest.fn()
    const result = await getToken({
      req: withCookie("authjs.session-token=opaque-value"),
      secret: SECRET,
      decode: () => {
        throw new Error("boom")
      },
      logger: { debug },
    })
    expect(result).toBeNull()
    expect(debug).toHaveBeenCalled()
  })

  test("the secret defaults to AUTH_SECRET", async () => {
    process.env.AUTH_SECRET = SECRET
    const token = await seal({ sub: "env" })
    expect(await getToken({ req: withCookie(`authjs.session-token=${token}`) })).toMatchObject({ sub: "env" })
  })

  test("AUTH_SECRET_1..3 are tried after AUTH_SECRET", async () => {
    process.env.AUTH_SECRET = OTHER_SECRET
    process.env.AUTH_SECRET_2 = SECRET
    const token = await seal({ sub: "rotated" })
    expect(await getToken({ req: withCookie(`authjs.session-token=${token}`) })).toMatchObject({ sub: "rotated" })
  })

  test("no secret anywhere is MissingSecretError", async () => {
    const token = await seal({ sub: "x" })
    await expect(getToken({ req: withCookie(`authjs.session-token=${token}`) })).rejects.toBeInstanceOf(MissingSecretError)
    await expect(getToken({ req: withCookie(`authjs.session-token=${token}`), secret: [] })).rejects.toBeInstanceOf(MissingSecretError)
  })

  test("a request without headers is InvalidOption", async () => {
    await expect(getToken({ req: {} as never, secret: SECRET })).rejects.toBeInstanceOf(InvalidOption)
  })
})

describe("request shapes", () => {
  test("a web Request", async () => {
    const token = await seal({ sub: "web" })
    const cookieReq = new Request("http://localhost/api", { headers: { Cookie: `authjs.session-token=${token}` } })
    expect(await getToken({ req: cookieReq, secret: SECRET })).toMatchObject({ sub: "web" })
    const bearerReq = new Request("http://localhost/api", { headers: { Authorization: `Bearer ${token}` } })
    expect(await getToken({ req: bearerReq, secret: SECRET })).toMatchObject({ sub: "web" })
  })

  test("an object whose headers is a Headers instance", async () => {
    const token = await seal({ sub: "headers" })
    expect(await getToken({ req: { headers: new Headers({ cookie: `authjs.session-token=${token}` }) }, secret: SECRET })).toMatchObject({ sub: "headers" })
  })

  test("a plain Node-style object with lower-case headers", async () => {
    const token = await seal({ sub: "node" })
    expect(await getToken({ req: { headers: { host: "localhost", cookie: `authjs.session-token=${token}` } }, secret: SECRET })).toMatchObject({ sub: "node" })
    expect(await getToken({ req: { headers: { host: "localhost", authorization: `Bearer ${token}` } }, secret: SECRET })).toMatchObject({ sub: "node" })
  })
})
