/**
 * Session cookies opened once are remembered (the decryption is skipped on the next read), but
 * every read still checks the claims: a remembered session that expires reads as signed out, a
 * value changed by one character is refused, and a configuration with another secret does not
 * share what this one opened.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { cookieSet } from "../../../lib/core/context.js"
import { openSessionToken, readCookieSession, writeSessionCookies } from "../../../lib/session/cookie-strategy.js"
import { resolveWith } from "../config/support.js"
import { ADMIT_EVERY, openSessionValue, rememberedCount } from "../../../lib/session/opened-cache.js"
import { RevocationCache } from "../../../lib/devices/revocation-cache.js"
import { DatabaseSessionCache } from "../../../lib/devices/database-cache.js"
import { sealToken } from "../../../lib/jwt/codec.js"

const NOW = Date.UTC(2026, 10, 1, 12, 0, 0)

async function signedInJar(config: ReturnType<typeof resolveWith>) {
  const set = cookieSet(config, false)
  const { cookies } = await writeSessionCookies(config, {}, set, { sub: "user-1", email: "a@example.com", name: "A", amr: ["pwd"] }, NOW / 1000)
  return { set, jar: Object.fromEntries(cookies.map((cookie) => [cookie.name, cookie.value])) }
}

afterEach(() => {
  jest.restoreAllMocks()
})

describe("the cache of opened session cookies", () => {
  it("a remembered session still expires: read at once, then a second past its exp (and the clock tolerance), it is signed out", async () => {
    const config = resolveWith({ session: { maxAge: 60 } })
    const { set, jar } = await signedInJar(config)
    jest.spyOn(Date, "now").mockReturnValue(NOW + 1_000)
    expect((await readCookieSession(config, jar, set)).session?.user?.email).toBe("a@example.com")
    expect((await readCookieSession(config, jar, set)).session?.user?.email).toBe("a@example.com")
    jest.spyOn(Date, "now").mockReturnValue(NOW + (60 + 15 + 1) * 1000)
    const expired = await readCookieSession(config, jar, set)
    expect(expired.session).toBeNull()
    expect(expired.cookies.map((cookie) => [cookie.name, cookie.value])).toEqual([[set.sessionToken.name, ""]])
  })

  it("after the cookie was remembered, a value one character off is still refused", async () => {
    const config = resolveWith()
    const { set, jar } = await signedInJar(config)
    jest.spyOn(Date, "now").mockReturnValue(NOW + 1_000)
    expect((await readCookieSession(config, jar, set)).session).not.toBeNull()
    const value = jar[set.sessionToken.name] as string
    for (const at of [10, value.length - 2]) {
      const changed = `${value.slice(0, at)}${value[at] === "A" ? "B" : "A"}${value.slice(at + 1)}`
      expect((await readCookieSession(config, { [set.sessionToken.name]: changed }, set)).session).toBeNull()
    }
    expect((await readCookieSession(config, jar, set)).session).not.toBeNull()
  })

  it("another configuration (another secret) does not open what this one remembered", async () => {
    const config = resolveWith()
    const { set, jar } = await signedInJar(config)
    jest.spyOn(Date, "now").mockReturnValue(NOW + 1_000)
    expect((await readCookieSession(config, jar, set)).session).not.toBeNull()
    const other = resolveWith({ secret: "another-secret-of-at-least-thirty-two-chars" })
    expect((await readCookieSession(other, jar, cookieSet(other, false))).session).toBeNull()
  })

  it("the jwt callback gets a fresh token object on every read (changing it does not change the next read)", async () => {
    const seen: Array<Record<string, unknown>> = []
    const config = resolveWith({
      callbacks: {
        jwt: ({ token }: { token: Record<string, unknown> }) => {
          seen.push({ ...token })
          token.email = "changed@example.com"
          return token
        },
      },
    })
    const { set, jar } = await signedInJar(config)
    jest.spyOn(Date, "now").mockReturnValue(NOW + 1_000)
    await readCookieSession(config, jar, set)
    await readCookieSession(config, jar, set)
    expect(seen.map((token) => token.email)).toEqual(["a@example.com", "a@example.com"])
  })

  it("what one read hands out is its own: changing the session, its amr or the opened token does not change the next read", async () => {
    const config = resolveWith()
    const { set, jar } = await signedInJar(config)
    jest.spyOn(Date, "now").mockReturnValue(NOW + 1_000)
    const first = await readCookieSession(config, jar, set)
    first.session!.user!.email = "changed@example.com"
    first.session!.amr!.push("otp")
    const opened = await openSessionToken(config, jar, set)
    opened!.email = "changed@example.com"
    ;(opened!.amr as string[]).push("otp")
    const second = await readCookieSession(config, jar, set)
    expect(second.session?.user?.email).toBe("a@example.com")
    expect(second.session?.amr).toEqual(["pwd"])
    expect(second.session).not.toBe(first.session)
    expect((await openSessionToken(config, jar, set))?.amr).toEqual(["pwd"])
  })
})

describe("the cache of opened session cookies, with more active sessions than it holds (issue #36)", () => {
  const MAX_ENTRIES = 200

  it(`holds at most session.cacheSize values; once full, lets one opened value in ${ADMIT_EVERY} in, and every value still opens`, () => {
    const config = resolveWith({ session: { cacheSize: MAX_ENTRIES } })
    const salt = cookieSet(config, false).sessionToken.name
    const now = Math.floor(NOW / 1000)
    const seal = (i: number) => sealToken({ sub: `user-${i}`, email: `user${i}@example.com`, sid: `sid-${i}` }, config.secrets[0] as string, salt, 3600, now)
    for (let i = 0; i < MAX_ENTRIES; i++) expect(openSessionValue(config, seal(i), salt, now)?.payload.sub).toBe(`user-${i}`)
    expect(rememberedCount(config, salt)).toBe(MAX_ENTRIES)
    const extra = Array.from({ length: ADMIT_EVERY * 4 }, (_, i) => seal(MAX_ENTRIES + i))
    const first = extra.map((value) => openSessionValue(config, value, salt, now))
    expect(first.map((opened) => opened?.payload.sub)).toEqual(extra.map((_, i) => `user-${MAX_ENTRIES + i}`))
    // Room is made a sixteenth at a time (lib/core/bounded-map.ts): never more than the bound.
    const held = rememberedCount(config, salt)
    expect(held).toBeLessThanOrEqual(MAX_ENTRIES)
    expect(held).toBeGreaterThanOrEqual(MAX_ENTRIES - (MAX_ENTRIES >> 4) - 1)
    // Read again: a remembered value answers with the very entry it was given; the others open again.
    const again = extra.map((value) => openSessionValue(config, value, salt, now))
    expect(again.map((opened) => opened?.payload.email)).toEqual(extra.map((_, i) => `user${MAX_ENTRIES + i}@example.com`))
    expect(again.filter((opened, i) => opened === first[i])).toHaveLength(extra.length / ADMIT_EVERY)
    expect(rememberedCount(config, salt)).toBeLessThanOrEqual(MAX_ENTRIES)
  })
})

describe("session.cacheSize bounds the revocation answers and the database sessions too (issue #36)", () => {
  it("the revocation cache keeps at most that many session ids: the oldest answer is forgotten (asked again)", () => {
    const now = Date.now()
    const cache = new RevocationCache(undefined, 3)
    for (const sid of ["a", "b", "c", "d"]) cache.learn(sid, undefined, { revoked: false, notBefore: 0 }, now)
    expect(cache.check("a", undefined, now, now)).toBeUndefined()
    expect(["b", "c", "d"].map((sid) => cache.check(sid, undefined, now, now))).toEqual([false, false, false])
  })

  it("the database session cache keeps at most that many sessions, the oldest going first", () => {
    const now = Date.now()
    const cache = new DatabaseSessionCache(2)
    const entry = (token: string) => ({ session: { sessionToken: token, userId: "u", expires: new Date(now + 60_000) }, user: { id: "u", email: "u@example.com", emailVerified: null }, sid: `sid-${token}` })
    for (const token of ["t1", "t2", "t3"]) cache.set(token, entry(token), now)
    expect(cache.get("t1", now)).toBeUndefined()
    expect(cache.get("t2", now)?.sid).toBe("sid-t2")
    expect(cache.get("t3", now)?.sid).toBe("sid-t3")
  })
})
