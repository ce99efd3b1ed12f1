/**
 * Session fixation and lifecycle, FIX-01 … FIX-04 (SECURITY-CATALOG.md §5), for cookie (JWE)
 * sessions and the credentials provider. The database parts (FIX-01 a–c rows, FIX-02 on APP-DB) and
 * the magic-link/OAuth/passkey sign-ins of FIX-01 b come with the adapter and those providers.
 */
import { beforeAll, beforeEach, describe, expect, it } from "@jest/globals"
import type { Express } from "express"
import type { JWT } from "../../lib/types.js"
import {
  AUTH_URL, BASE, CSRF, SESSION, assertSignedOut, buildApp, call, clearedNames, csrfPair, expectMissingCsrf,
  open, preserveEnv, sessionCookie, sessionOf, setCookies, setValues, signIn,
} from "./fixtures.js"

preserveEnv("AUTH_URL")

let app: Express
const signOuts: Array<{ token: JWT | null }> = []
const updates: unknown[] = []

beforeAll(() => {
  app = buildApp(AUTH_URL, {
    events: { signOut: (message) => void signOuts.push({ token: "token" in message ? message.token : null }) },
    callbacks: {
      jwt: ({ token, trigger, session }: { token: JWT; trigger?: string; session?: unknown }) => {
        if (trigger === "update") updates.push(session)
        return token
      },
    },
  }).app
})
beforeEach(() => {
  signOuts.length = 0
  updates.length = 0
})

const valueOf = (cookie: string) => cookie.slice(cookie.indexOf("=") + 1)
const userOf = async (cookie: string) => (await sessionOf(app, cookie))?.user as { name?: string; email?: string } | undefined

describe("FIX-01 a fresh session on every sign-in; planted tokens never adopted", () => {
  it("a: a planted random value is replaced by a new token", async () => {
    const planted = `${SESSION}=fixed-${"0".repeat(58)}`
    const { res, session } = await signIn(app, { cookie: planted })
    expect(res.status).toBe(302)
    expect(session).not.toBe("")
    expect(session).not.toBe(planted)
    expect((await userOf(session))?.name).toBe("Alice")
  })

  it("b/d: mallory's genuine session in the jar is replaced; both sessions keep their own identity", async () => {
    const mallory = (await signIn(app, { username: "bob" })).session
    const malloryClaims = await open(valueOf(mallory))
    const { session } = await signIn(app, { cookie: mallory })
    expect(session).not.toBe(mallory)
    const aliceClaims = await open(valueOf(session))
    expect(aliceClaims?.sub).toBe("user-alice")
    // The session id is `sid` since issue #14 (it replaced `jti` in session cookies).
    expect(aliceClaims?.sid).toEqual(expect.any(String))
    expect(aliceClaims?.sid).not.toBe(malloryClaims?.sid)
    expect((await userOf(session))?.name).toBe("Alice")
    expect((await userOf(mallory))?.name).toBe("Bob")
  })

  it("b: planted chunks are cleared when a small session is written", async () => {
    const planted = `${SESSION}.0=${"a".repeat(100)}; ${SESSION}.1=${"b".repeat(100)}`
    const { res } = await signIn(app, { cookie: planted })
    expect(clearedNames(res)).toEqual([`${SESSION}.0`, `${SESSION}.1`])
    expect([...setValues(res).keys()]).toContain(SESSION)
  })

  it("c/d: signing in again issues a new token with a new session id (sid)", async () => {
    const first = (await signIn(app)).session
    const second = (await signIn(app, { cookie: first })).session
    expect(second).not.toBe(first)
    const [t1, t2] = [await open(valueOf(first)), await open(valueOf(second))]
    expect(t1?.sid).toEqual(expect.any(String))
    expect(t2?.sid).not.toBe(t1?.sid)
    const sids = new Set<unknown>()
    for (let i = 0; i < 20; i++) sids.add((await open(valueOf((await signIn(app)).session)))?.sid)
    expect(sids.size).toBe(20)
  })
})

describe("FIX-02 sign-out (since issue #14 a copied JWE is revoked with its session id)", () => {
  it("sign-out clears the cookie and fires signOut once with the session; the copied cookie no longer opens", async () => {
    const { session } = await signIn(app)
    const csrf = await csrfPair(app, undefined, session)
    const res = await call(app, "POST", "/auth/signout", { cookie: `${session}; ${csrf.cookie}`, form: { csrfToken: csrf.token } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${BASE}/`)
    expect(clearedNames(res)).toContain(SESSION)
    expect(signOuts).toHaveLength(1)
    expect(signOuts[0]?.token?.sub).toBe("user-alice")
    // README, Sessions: sign-out "revokes its sid in the shared store, so a copy of the cookie taken
    // before reads as signed out on every process" (it stayed valid until its exp before issue #14).
    expect(await userOf(session)).toBeUndefined()
  })

  it("sign-out with no session: 302 to the callback URL, nothing to clear", async () => {
    const csrf = await csrfPair(app)
    const res = await call(app, "POST", "/auth/signout", { cookie: csrf.cookie, form: { csrfToken: csrf.token, callbackUrl: "/bye" } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${BASE}/bye`)
    expect(setCookies(res).filter((c) => c.name.startsWith(SESSION))).toEqual([])
    expect(signOuts).toEqual([])
  })

  it("sign-out with a broken session: 302, cleared, signOut with a null token", async () => {
    const csrf = await csrfPair(app)
    const broken = `${SESSION}=${"x".repeat(200)}`
    const res = await call(app, "POST", "/auth/signout", { cookie: `${broken}; ${csrf.cookie}`, form: { csrfToken: csrf.token } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${BASE}/`)
    expect(clearedNames(res)).toContain(SESSION)
    expect(signOuts).toEqual([{ token: null }])
    await assertSignedOut(app, broken)
  })
})

describe("FIX-03 session update cannot rewrite identity or privileges", () => {
  async function update(json: string) {
    const { session } = await signIn(app)
    const csrf = await csrfPair(app, undefined, session)
    const res = await call(app, "POST", "/auth/session", { cookie: `${session}; ${csrf.cookie}`, json: json.replace("<t>", csrf.token) })
    return { res, session }
  }

  it("sub, email and role in the data change nothing with the default callbacks", async () => {
    const { res } = await update('{"csrfToken":"<t>","data":{"sub":"user-bob","email":"bob@example.com","name":"Bob","role":"admin"}}')
    expect(res.status).toBe(200)
    expect(res.body.user).toEqual({ name: "Alice", email: "alice@example.com", image: "https://img.example/alice.png" })
    expect(res.body.role).toBeUndefined()
    const token = await open(valueOf(sessionCookie(res)))
    expect(token).toMatchObject({ sub: "user-alice", email: "alice@example.com" })
    expect(token?.role).toBeUndefined()
    expect((await userOf(sessionCookie(res)))?.email).toBe("alice@example.com")
  })

  it("prototype keys in the data pollute nothing", async () => {
    for (const data of ['{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}']) {
      const { res } = await update(`{"csrfToken":"<t>","data":${data}}`)
      expect(res.status).toBe(200)
      expect(res.body.user.name).toBe("Alice")
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
      expect((Object.prototype as Record<string, unknown>).isAdmin).toBeUndefined()
    }
  })

  it("a 1 MB update is refused with 413 before any callback runs", async () => {
    const { res, session } = await update(`{"csrfToken":"<t>","data":{"blob":"${"z".repeat(1024 * 1024)}"}}`)
    expect(res.status).toBe(413)
    expect(res.body.error.type).toBe("PayloadTooLarge")
    expect(updates).toEqual([])
    expect((await userOf(session))?.name).toBe("Alice")
  })
})

describe("FIX-04 the csrf token rotates on sign-in (and sign-out)", () => {
  it("the pair from before sign-in no longer matches the jar; the new pair works", async () => {
    const before = await csrfPair(app)
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: before.cookie, form: { csrfToken: before.token, username: "alice", password: "correct-horse" } })
    const rotated = setValues(res).get(CSRF)
    expect(rotated).toMatch(/^[0-9a-f]{64}\|[0-9a-f]{64}$/)
    expect(rotated).not.toBe(before.value)
    const session = sessionCookie(res)
    // The browser's jar now holds the rotated cookie: the old field token is refused.
    const jar = `${session}; ${CSRF}=${rotated}`
    expectMissingCsrf(await call(app, "POST", "/auth/signout", { cookie: jar, form: { csrfToken: before.token } }))
    expect((await userOf(session))?.name).toBe("Alice")
    const out = await call(app, "POST", "/auth/signout", { cookie: jar, form: { csrfToken: rotated!.split("|")[0]! } })
    expect(out.status).toBe(302)
    expect(clearedNames(out)).toContain(SESSION)
    expect(setValues(out).get(CSRF)).not.toBe(rotated)
  })
})
