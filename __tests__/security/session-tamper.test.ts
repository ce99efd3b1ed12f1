/**
 * Session cookie tampering, SESS-01 … SESS-06 (SECURITY-CATALOG.md §3) over HTTP: mutated cookies are
 * presented to GET /auth/session, GET /api/me and GET /dashboard (SIGNED-OUT oracle). Chunks,
 * cross-purpose tokens and oversized cookies (SESS-07 … SESS-09) are in session-chunks.test.ts.
 * SESS-10 needs a database adapter.
 */
import { deflateRawSync } from "node:zlib"
import { createHmac } from "node:crypto"
import { afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { Express } from "express"
import { getToken } from "../../lib/jwt/index.js"
import type { JWT } from "../../lib/types.js"
import {
  AUTH_URL, DIR_CBC, OTHER_SECRET, SECRET, SESSION, TLS_AUTH_URL, TLS_HOST, TLS_SESSION, assertAlive, assertSignedOut, buildApp,
  call, claims, clearedNames, kdf, mint, open, preserveEnv, randomToken, rawJwe, rawJws, rawNone, sealRaw, sessionOf, setCookieLines, signIn, thumbprint,
} from "./fixtures.js"

preserveEnv("AUTH_URL")

let app: Express
let tls: Express
let rotating: Express
let alice: string
let token: string
const sessionSubjects: unknown[] = []
const debug: string[] = []

beforeAll(async () => {
  tls = buildApp(TLS_AUTH_URL).app
  rotating = buildApp(AUTH_URL, { secret: [SECRET, OTHER_SECRET] }).app
  app = buildApp(AUTH_URL, {
    logger: { debug: (message: string) => void debug.push(message) },
    callbacks: {
      session: ({ session, token: t }: { session: unknown; token?: JWT }) => {
        sessionSubjects.push(t?.sub)
        return session as never
      },
    },
  }).app
  alice = (await signIn(app)).session
  token = alice.slice(SESSION.length + 1)
  expect(token.split(".")).toHaveLength(5)
})

afterEach(() => {
  jest.restoreAllMocks()
})

const as = (value: string, name = SESSION) => `${name}=${value}`
const aliceName = async (cookie: string, target = app, host?: string) => ((await sessionOf(target, cookie, host))?.user as { name?: string } | undefined)?.name

function flip(segment: string, index: number): string {
  const bytes = Buffer.from(segment, "base64url")
  bytes[index] = (bytes[index] ?? 0) ^ 1
  return bytes.toString("base64url")
}

describe("SESS-01 bit flips in every segment", () => {
  it("all 12 variants read as signed out, identically, and are cleared", async () => {
    expect(await aliceName(alice)).toBe("Alice")
    const seen = new Set<string>()
    const segments = token.split(".")
    for (const index of [0, 2, 3, 4]) {
      const length = Buffer.from(segments[index]!, "base64url").length
      for (const position of [0, Math.floor(length / 2), length - 1]) {
        const mutated = [...segments]
        mutated[index] = flip(segments[index]!, position)
        const value = mutated.join(".")
        debug.length = 0
        const { session, api, page } = await assertSignedOut(app, as(value))
        expect(clearedNames(session)).toEqual([SESSION])
        seen.add(JSON.stringify([session.status, session.text, api.status, api.text, page.status, page.headers.location]))
        expect(debug.some((m) => m.includes("JWTSessionError"))).toBe(true)
        expect(debug.join("\n")).not.toContain(value)
      }
    }
    expect(seen.size).toBe(1)
    expect(sessionSubjects).not.toContain("user-bob")
    await assertAlive(app)
  })
})

describe("SESS-02 truncation and malformed structure", () => {
  const segments = () => token.split(".")
  const variants: Array<[string, () => string]> = [
    ["four segments", () => segments().slice(0, 4).join(".")],
    ["trailing dot", () => `${token}.`],
    ["sixth segment", () => `${token}.AAAA`],
    ...[0, 2, 3, 4].map((i) => [`segment ${i} emptied`, () => segments().map((s, j) => (i === j ? "" : s)).join(".")] as [string, () => string]),
    ["empty", () => ""],
    ["null", () => "null"],
    ["undefined", () => "undefined"],
    ["[object Object]", () => "[object Object]"],
    ["5000 × a", () => "a".repeat(5000)],
    ["embedded %00", () => `${token.slice(0, 40)}%00${token.slice(40)}`],
    ["malformed percent-encoding", () => `${token}%E0%A4%A`],
    ["encrypted key not empty", () => segments().map((s, j) => (j === 1 ? "AAAA" : s)).join(".")],
  ]

  it.each(variants)("%s reads as signed out", async (_name, make) => {
    await assertSignedOut(app, as(make()))
    await assertAlive(app)
  })

  it.each([
    ["wrapped in double quotes", () => `"${token}"`],
    ["dots written %2E", () => token.replace(/\./g, "%2E")],
    ["leading space", () => ` ${token}`],
  ])("%s: same bytes after cookie decoding, so alice or signed out, never another user, no 5xx", async (_name, make) => {
    const name = await aliceName(as(make()))
    expect([undefined, "Alice"]).toContain(name)
  })
})

describe("SESS-03 header substitutions", () => {
  const body = () => claims("alice")
  const variants: Array<[string, () => Promise<string> | string]> = [
    ["a: dir + A128CBC-HS256 with a key from the real secret", () => rawJwe({ alg: "dir", enc: "A128CBC-HS256" }, body(), kdf(SECRET, SESSION, 32))],
    ["b: dir + A256GCM under a secret not configured", () => rawJwe({ alg: "dir", enc: "A256GCM" }, body(), kdf("SX-never-configured", SESSION, 32))],
    ["c: A256KW wrapping a CEK with a key from the real secret", () => rawJwe({ alg: "A256KW", enc: "A256CBC-HS512" }, body(), kdf(SECRET, SESSION, 32))],
    ["d: PBES2 with p2c 2^31-1", () => [Buffer.from(JSON.stringify({ alg: "PBES2-HS512+A256KW", enc: "A256CBC-HS512", p2c: 2147483647, p2s: "AAAAAAAAAAAAAAAAAAAAAA" })).toString("base64url"), randomToken(54), randomToken(22), randomToken(43), randomToken(43)].join(".")],
    ["e: zip DEF over 10 MB of zeros", () => sealRaw({ ...DIR_CBC, zip: "DEF" }, deflateRawSync(Buffer.alloc(10 * 1024 * 1024)))],
    ["e: zip DEF over valid claims", () => sealRaw({ ...DIR_CBC, zip: "DEF" }, deflateRawSync(Buffer.from(JSON.stringify(body()))))],
    ["f: crit [exp]", () => sealRaw({ ...DIR_CBC, crit: ["exp"], exp: 0 }, JSON.stringify(body()))],
    ["g: kid of an unconfigured secret on a real-secret token", () => sealRaw({ ...DIR_CBC, kid: thumbprint(kdf(OTHER_SECRET)) }, JSON.stringify(body()))],
    ["g: kid of the real secret on an other-secret token", () => sealRaw({ ...DIR_CBC, kid: thumbprint(kdf(SECRET)) }, JSON.stringify(body()), kdf(OTHER_SECRET))],
    ["g: kid of 9 kB (a 12 kB header segment)", () => sealRaw({ ...DIR_CBC, kid: "k".repeat(9_000) }, JSON.stringify(body()))],
    ["h: duplicate alg ending in none", () => sealRaw('{"alg":"dir","alg":"none","enc":"A256CBC-HS512"}', JSON.stringify(body()))],
    ["h: alg none with the real ciphertext", () => sealRaw({ alg: "none", enc: "A256CBC-HS512" }, JSON.stringify(body()))],
  ]

  it.each(variants)("%s reads as signed out", async (_name, make) => {
    const value = await make()
    const [outcome] = await Promise.all([assertSignedOut(app, as(value)), assertAlive(app)])
    expect(clearedNames(outcome.session)).toEqual([SESSION])
  })

  it("controls: the same builders with the documented header are accepted (dir + A256CBC-HS512, and A256GCM under the secret)", async () => {
    expect(await aliceName(as(sealRaw(DIR_CBC, JSON.stringify(body()))))).toBe("Alice")
    expect(await aliceName(as(sealRaw({ ...DIR_CBC, kid: thumbprint(kdf(SECRET)) }, JSON.stringify(body()))))).toBe("Alice")
    expect(await aliceName(as(await rawJwe({ alg: "dir", enc: "A256GCM" }, body(), kdf(SECRET, SESSION, 32))))).toBe("Alice")
  })
})

describe("SESS-04 alg none, signed-only and plaintext tokens", () => {
  const bob = () => claims("bob")
  const hs256 = (payload: object, key: string) => {
    const head = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url")
    const data = `${head}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}`
    return `${data}.${createHmac("sha256", key).update(data).digest("base64url")}`
  }
  const variants: Array<[string, () => Promise<string> | string]> = [
    ["a: alg none", () => rawNone(bob())],
    ["b: HS256 with the secret", () => rawJws(bob(), new TextEncoder().encode(SECRET))],
    ["c: HS256 with the empty key", () => hs256(bob(), "")],
    ["d: base64url JSON", () => Buffer.from(JSON.stringify({ user: { email: "bob@example.com" }, ...bob() })).toString("base64url")],
    ["e: JWE under a zero key", () => rawJwe(DIR_CBC, bob(), new Uint8Array(64))],
    ["e: JWE under kdf of the empty secret", () => rawJwe(DIR_CBC, bob(), kdf(""))],
  ]

  it.each(variants)("%s is signed out as a cookie and as a Bearer token", async (_name, make) => {
    const value = await make()
    sessionSubjects.length = 0
    await assertSignedOut(app, as(value))
    const bearer = await call(app, "GET", "/api/me", { headers: { Authorization: `Bearer ${value}` }, accept: "application/json" })
    expect(bearer.status).toBe(401)
    expect(await getToken({ req: { headers: { cookie: as(value) } }, secret: SECRET })).toBeNull()
    expect(await getToken({ req: { headers: { authorization: `Bearer ${value}` } }, secret: SECRET })).toBeNull()
    expect(sessionSubjects).toEqual([])
  })
})

describe("SESS-05 wrong salt, wrong secret, rotation", () => {
  it("a: a token sealed for the other cookie name is refused on both schemes", async () => {
    await assertSignedOut(app, as(await mint(claims(), { salt: TLS_SESSION })))
    await assertSignedOut(tls, as(await mint(claims(), { salt: SESSION }), TLS_SESSION), { host: TLS_HOST })
    expect(await aliceName(as(await mint(claims(), { salt: TLS_SESSION }), TLS_SESSION), tls, TLS_HOST)).toBe("Alice")
  })

  it("b/d: a token sealed with a secret the server does not have", async () => {
    await assertSignedOut(app, as(await mint(claims(), { secret: OTHER_SECRET })))
    await assertSignedOut(app, as(await mint(claims(), { secret: "SX-never-configured-0123456789abcdef" })))
  })

  it("c: an older secret's token is accepted and re-sealed with the first secret on that request", async () => {
    const old = await mint(claims(), { secret: OTHER_SECRET })
    const res = await call(rotating, "GET", "/auth/session", { cookie: as(old) })
    expect(res.body.user.name).toBe("Alice")
    const reissued = setValue(res)
    expect(await open(reissued, SESSION, SECRET)).toMatchObject({ sub: "user-alice" })
    expect(await open(reissued, SESSION, OTHER_SECRET)).toBeNull()
    const fresh = await signIn(rotating)
    expect(await open(fresh.session.slice(SESSION.length + 1), SESSION, SECRET)).not.toBeNull()
    expect(await open(fresh.session.slice(SESSION.length + 1), SESSION, OTHER_SECRET)).toBeNull()
  })

  it("e: an older secret's token carrying the first secret's kid is refused", async () => {
    const forged = sealRaw({ ...DIR_CBC, kid: thumbprint(kdf(SECRET)) }, JSON.stringify(claims()), kdf(OTHER_SECRET))
    await assertSignedOut(app, as(forged))
    await assertSignedOut(rotating, as(forged))
  })
})

function setValue(res: { headers: Record<string, unknown> }): string {
  const line = setCookieLines(res).find((l) => l.startsWith(`${SESSION}=`))
  return (line ?? "").slice(SESSION.length + 1).split(";")[0] ?? ""
}

describe("SESS-06 expired and odd time claims (documented tolerance: 15 s)", () => {
  const T = 1_900_000_000
  const at = (extra: Record<string, unknown>) => as(sealRaw(DIR_CBC, JSON.stringify({ ...claims("alice", { iat: T - 60, exp: T + 3600 }), ...extra })))
  const frozen = () => jest.spyOn(Date, "now").mockReturnValue(T * 1000)

  it.each([
    ["a: exp 60 s ago", { exp: T - 60 }],
    ["exp 16 s ago (past the tolerance)", { exp: T - 16 }],
    ["c: no exp", { exp: undefined }],
    ["d: exp as a string", { exp: "9999999999" }],
    ["f: iat a day ahead", { iat: T + 86_400 }],
    ["iat 16 s ahead", { iat: T + 16 }],
    ["g: nbf an hour ahead", { nbf: T + 3600 }],
  ])("%s is signed out and cleared", async (_name, extra) => {
    frozen()
    const cookie = at(extra)
    const { session } = await assertSignedOut(app, cookie)
    expect(clearedNames(session)).toEqual([SESSION])
  })

  it("e: exp 1e309 (Infinity) is signed out", async () => {
    frozen()
    const text = JSON.stringify(claims("alice", { iat: T - 60, exp: 0 })).replace('"exp":0', '"exp":1e309')
    await assertSignedOut(app, as(sealRaw(DIR_CBC, text)))
  })

  it.each([
    ["b: exp 5 s ago", { exp: T - 5 }],
    ["exp 14 s ago", { exp: T - 14 }],
    ["iat 10 s ahead", { iat: T + 10 }],
    ["nbf 10 s ahead", { nbf: T + 10 }],
    ["control: fresh", {}],
  ])("%s is within the tolerance and accepted", async (_name, extra) => {
    frozen()
    expect(await aliceName(at(extra))).toBe("Alice")
  })

  it("h: an absolute maxAge already past ends an otherwise fresh session", async () => {
    const ended = buildApp(AUTH_URL, { session: { maxAge: new Date(Date.now() - 1000) } }).app
    const fresh = as(await mint(claims()))
    const { session } = await assertSignedOut(ended, fresh)
    expect(clearedNames(session)).toEqual([SESSION])
  })
})
