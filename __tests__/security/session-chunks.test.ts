/**
 * Session cookie tampering, continued (SECURITY-CATALOG.md §3): SESS-07 chunked cookies, SESS-08
 * cross-purpose values presented as the session, SESS-09 oversized cookies and large sessions.
 * The SESS-08 state/PKCE/nonce/challenge/magic-link values come with OAuth, passkeys and email.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import type { Express } from "express"
import type { JWT } from "../../lib/types.js"
import {
  AUTH_URL, CSRF, SESSION, assertAlive, assertSignedOut, buildApp, call, claims, clearedNames, cookieHeader, csrfPair,
  expectMissingCsrf, listen, mint, rawHttp, setCookieLines, preserveEnv, randomToken, sessionCookie, sessionOf, setCookies, signIn,
} from "./fixtures.js"

preserveEnv("AUTH_URL")

const BIG = "x".repeat(6000)
const PICTURE = `data:image/png;base64,${"A".repeat(10_000)}`
let app: Express
let chunky: Express
let pictures: Express
let chunks: Array<[string, string]>
let bobSmall: string
const debug: string[] = []

function pairs(cookie: string): Array<[string, string]> {
  return cookie.split("; ").map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)] as [string, string])
}

beforeAll(async () => {
  app = buildApp(AUTH_URL).app
  pictures = buildApp(AUTH_URL, {
    logger: { debug: (message: string) => void debug.push(message) },
    // Sized to stay within Node's 16 kB of response headers beside the sign-in's other cookies
    // (CSRF, the sign-in page's "Last used").
    callbacks: { jwt: ({ token }: { token: JWT }) => ({ ...token, picture: PICTURE, id_token: "e".repeat(700), access_token: "a".repeat(400) }) },
  }).app
  chunky = buildApp(AUTH_URL, {
    callbacks: {
      jwt: ({ token, trigger, session: data }: { token: JWT; trigger?: string; session?: unknown }) => {
        const session = data as { size?: string } | undefined
        if (trigger === "signIn") return { ...token, big: BIG }
        if (trigger === "update" && session?.size === "small") return { ...token, big: undefined }
        if (trigger === "update" && session?.size === "big") return { ...token, big: BIG }
        return token
      },
    },
  }).app
  const { session } = await signIn(chunky)
  chunks = pairs(session)
  expect(chunks.map(([name]) => name)).toEqual([`${SESSION}.0`, `${SESSION}.1`, `${SESSION}.2`].slice(0, chunks.length))
  expect(chunks.length).toBeGreaterThanOrEqual(2)
  bobSmall = await mint(claims("bob"))
})

const nameOf = async (target: Express, cookie: string) => ((await sessionOf(target, cookie))?.user as { name?: string } | undefined)?.name

describe("SESS-07 chunked cookies", () => {
  it("control and c: genuine chunks are valid in any header order", async () => {
    expect(await nameOf(chunky, cookieHeader(chunks))).toBe("Alice")
    expect(await nameOf(chunky, cookieHeader([...chunks].reverse()))).toBe("Alice")
  })

  it("a: a missing chunk signs out and clears the rest", async () => {
    const cookie = cookieHeader(chunks.filter(([name]) => name !== `${SESSION}.1`))
    const { session } = await assertSignedOut(chunky, cookie)
    expect(clearedNames(session)).toEqual(chunks.map(([n]) => n).filter((n) => n !== `${SESSION}.1`))
  })

  it("b: swapped chunk values sign out and clear every chunk", async () => {
    const swapped = chunks.map(([name], i) => [name, chunks[i === 0 ? 1 : i === 1 ? 0 : i]![1]] as [string, string])
    const { session } = await assertSignedOut(chunky, cookieHeader(swapped))
    expect(clearedNames(session)).toEqual(chunks.map(([n]) => n))
  })

  it("d: an extra junk chunk signs out and clears every chunk", async () => {
    const extra = [...chunks, [`${SESSION}.${chunks.length}`, randomToken(300)]] as Array<[string, string]>
    const { session } = await assertSignedOut(chunky, cookieHeader(extra))
    expect(clearedNames(session)).toEqual(extra.map(([n]) => n))
  })

  it("e: the whole cookie and chunks together: signed out, both cleared, never bob or a mix", async () => {
    for (const order of [[[SESSION, bobSmall], ...chunks], [...chunks, [SESSION, bobSmall]]] as Array<Array<[string, string]>>) {
      const { session } = await assertSignedOut(chunky, cookieHeader(order))
      expect(clearedNames(session)).toEqual([SESSION, ...chunks.map(([n]) => n)].sort())
    }
    expect(await nameOf(chunky, `${SESSION}=${bobSmall}`)).toBe("Bob")
  })

  it("f: foreign names sharing the prefix are ignored or sign out, never 5xx", async () => {
    const foreign = [".x", ".-1", ".01", "foo", ".99999999999999999999", ".2 "].map((suffix) => [`${SESSION}${suffix}`, randomToken(200)] as [string, string])
    for (const cookie of foreign) {
      expect([undefined, "Alice"]).toContain(await nameOf(chunky, cookieHeader([...chunks, cookie])))
      await assertSignedOut(chunky, cookieHeader([cookie]))
    }
  })

  it("g: 200 chunk cookies of 4 kB: Node answers 431 by default; Gatehouse itself signs out", async () => {
    const many = [...chunks, ...Array.from({ length: 200 - chunks.length }, (_, i) => [`${SESSION}.${i + chunks.length}`, randomToken(4000)] as [string, string])]
    const small = await listen(chunky)
    try {
      const res = await call(small.server, "GET", "/auth/session", { cookie: cookieHeader(many.slice(0, 5)) })
      expect(res.status).toBe(431)
      await assertAlive(small.server)
    } finally {
      await small.close()
    }
    // A server configured for huge headers: Gatehouse reads at most 10 chunks and signs out.
    const roomy = await listen(chunky, { maxHeaderSize: 2_000_000 })
    try {
      const res = await rawHttp(roomy.port, `GET /auth/session HTTP/1.1\r\nHost: app.test:3000\r\nCookie: ${cookieHeader(many)}\r\nConnection: close\r\n\r\n`)
      expect(res.status).toBe(200)
      expect(res.body.trim().endsWith("null")).toBe(true)
      // Only names Gatehouse could have written (.0 to .10) get a clearing line, not all 200.
      const cleared = res.headers.filter(([name, value]) => name === "set-cookie" && /^authjs\.session-token\.\d+=;/.test(value))
      expect(cleared.map(([, value]) => value.split("=")[0])).toEqual(Array.from({ length: 11 }, (_, i) => `${SESSION}.${i}`))
      await assertAlive(roomy.server)
    } finally {
      await roomy.close()
    }
  })

  it("h: shrinking and growing write a complete cookie set and clear the unused names", async () => {
    const csrf = await csrfPair(chunky)
    const shrink = await call(chunky, "POST", "/auth/session", { cookie: `${cookieHeader(chunks)}; ${csrf.cookie}`, json: { csrfToken: csrf.token, data: { size: "small" } } })
    expect(shrink.status).toBe(200)
    const small = sessionCookie(shrink)
    expect(pairs(small).map(([n]) => n)).toEqual([SESSION])
    expect(clearedNames(shrink)).toEqual(chunks.map(([n]) => n))
    expect(await nameOf(chunky, small)).toBe("Alice")
    const grow = await call(chunky, "POST", "/auth/session", { cookie: `${small}; ${csrf.cookie}`, json: { csrfToken: csrf.token, data: { size: "big" } } })
    const big = sessionCookie(grow)
    expect(pairs(big).length).toBeGreaterThanOrEqual(2)
    expect(pairs(big).every(([n]) => n.startsWith(`${SESSION}.`))).toBe(true)
    expect(clearedNames(grow)).toEqual([SESSION])
    expect(await nameOf(chunky, big)).toBe("Alice")
  })
})

describe("SESS-08 cross-purpose values presented as the session", () => {
  it("the csrf cookie value and a callback-url value are signed out", async () => {
    const csrf = await csrfPair(app)
    await assertSignedOut(app, `${SESSION}=${csrf.value}`)
    await assertSignedOut(app, `${SESSION}=${encodeURIComponent(`${AUTH_URL.replace("/auth", "")}/dashboard`)}`)
  })

  it.each(["authjs.callback-url", "authjs.csrf-token", "authjs.state", "authjs.pkce.code_verifier", "authjs.nonce", "authjs.challenge", "__Secure-authjs.session-token"])(
    "a genuine token sealed for %s (another salt) is signed out",
    async (salt) => {
      await assertSignedOut(app, `${SESSION}=${await mint(claims(), { salt })}`)
    },
  )

  it("reverse: the session token as the csrf cookie and field is refused", async () => {
    const { session } = await signIn(app)
    const value = session.slice(SESSION.length + 1)
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: `${CSRF}=${value}`, form: { csrfToken: value, username: "bob", password: "battery-staple" } })
    expectMissingCsrf(res)
    const pipe = `${value.slice(0, 64)}|${value.slice(64)}`
    expectMissingCsrf(await call(app, "POST", "/auth/callback/credentials", { cookie: `${CSRF}=${pipe}`, form: { csrfToken: value.slice(0, 64), username: "bob", password: "battery-staple" } }))
  })
})

describe("SESS-09 oversized cookies and legitimately large sessions", () => {
  afterAll(() => void (debug.length = 0))

  it("a: 15 kB of random data under the session name is signed out", async () => {
    await assertSignedOut(app, `${SESSION}=${randomToken(15_000)}`)
    const shaped = Array.from({ length: 5 }, () => randomToken(2990)).join(".")
    await assertSignedOut(app, `${SESSION}=${shaped}`)
    await assertAlive(app)
  })

  it("c: a 10 kB picture claim is chunked within 4096-byte Set-Cookie lines and reassembles", async () => {
    debug.length = 0
    const { res, session } = await signIn(pictures)
    expect(res.status).toBe(302)
    const lines = setCookieLines(res)
    const sessionLines = lines.filter((line) => line.startsWith(`${SESSION}.`))
    expect(sessionLines.length).toBeGreaterThanOrEqual(4)
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(4096)
    expect(setCookies(res).some((c) => c.name === SESSION)).toBe(false)
    const current = await sessionOf(pictures, session)
    expect((current?.user as { image?: string }).image).toBe(PICTURE)
    expect(debug.some((m) => /chunk/i.test(m))).toBe(true)
  })
})
