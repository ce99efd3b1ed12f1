/**
 * The session cookie over HTTP: secret rotation and chunking.
 */
import { randomBytes } from "node:crypto"
import type { JwtCallbackParams } from "../../lib/types.js"
import { OTHER_SECRET, SECRET, findCookie, isCleared, makeApp, request, testConfig } from "../helpers/app.js"
import {
  ALICE_TOKEN,
  HOST,
  SESSION_COOKIE,
  agentFor,
  cookieHeader,
  mintSession,
  openSession,
  sessionCookies,
  sessionValue,
  setCookieLines,
  signedIn,
} from "./support.js"

const NEW_SECRET = "new-secret-3b8e0f6a1c2d4e5f7a9b0c1d2e3f4a5b"
const RETIRED_SECRET = "retired-secret-5d1e2f3a4b6c7d8e9f0a1b2c3d4e"

describe("secret rotation", () => {
  const app = () => makeApp(testConfig({ secret: [NEW_SECRET, SECRET] }))

  test("a cookie sealed with the older secret is accepted and re-sealed with the first one", async () => {
    const old = await mintSession(ALICE_TOKEN, { secret: SECRET })
    const response = await request(app()).get("/auth/session").set("Host", HOST).set("Cookie", cookieHeader({ [SESSION_COOKIE]: old })).expect(200)
    expect(response.body.user).toEqual({ name: "Alice", email: "alice@example.com", image: "https://img.example/alice.png" })
    const resealed = sessionValue(response)
    expect(resealed).toBeDefined()
    expect(resealed).not.toBe(old)
    expect(await openSession(resealed, NEW_SECRET)).toMatchObject(ALICE_TOKEN)
    expect(await openSession(resealed, SECRET)).toBeNull()
  })

  test("a cookie sealed with the first secret is read without being rewritten", async () => {
    const current = await mintSession(ALICE_TOKEN, { secret: NEW_SECRET })
    const response = await request(app()).get("/auth/session").set("Host", HOST).set("Cookie", cookieHeader({ [SESSION_COOKIE]: current })).expect(200)
    expect(response.body.user.name).toBe("Alice")
    expect(sessionCookies(response)).toEqual([])
  })

  test("a cookie sealed with a secret not in the list reads as signed out and is cleared", async () => {
    const foreign = await mintSession(ALICE_TOKEN, { secret: OTHER_SECRET })
    const response = await request(app()).get("/auth/session").set("Host", HOST).set("Cookie", cookieHeader({ [SESSION_COOKIE]: foreign })).expect(200)
    expect(response.text).toBe("null")
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
  })

  test("the retired secret alone no longer opens sessions once dropped from the list", async () => {
    const old = await mintSession(ALICE_TOKEN, { secret: RETIRED_SECRET })
    const response = await request(app()).get("/auth/session").set("Host", HOST).set("Cookie", cookieHeader({ [SESSION_COOKIE]: old })).expect(200)
    expect(response.text).toBe("null")
  })
})

describe("chunking", () => {
  /** 6 kB of incompressible text added to the token at sign-in; `slim` removes it on later reads. */
  function chunkyApp(options: { slim?: () => boolean } = {}) {
    const blob = randomBytes(3000).toString("hex")
    const jwt = ({ token, trigger }: JwtCallbackParams) => {
      if (trigger === "signIn") return { ...token, blob }
      if (options.slim?.()) {
        const { blob: _blob, ...rest } = token
        return rest
      }
      return token
    }
    return { blob, app: makeApp(testConfig({ callbacks: { jwt } })) }
  }

  test("a session over the cookie limit arrives as .0/.1/... chunks, each Set-Cookie line within 4096 bytes", async () => {
    const { app, blob } = chunkyApp()
    const agent = agentFor(app)
    const response = await signedIn(agent)
    const names = sessionCookies(response).map((cookie) => cookie.name)
    // About 8 kB once sealed: three chunks, named .0, .1, .2 in order.
    expect(names.length).toBeGreaterThanOrEqual(2)
    expect(names).toEqual(names.map((_, index) => `${SESSION_COOKIE}.${index}`))
    expect(findCookie(response, SESSION_COOKIE)).toBeUndefined()
    for (const line of setCookieLines(response).filter((l) => l.startsWith(SESSION_COOKIE))) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(4096)
    }
    const joined = sessionCookies(response)
      .map((cookie) => cookie.value)
      .join("")
    expect((await openSession(joined))?.blob).toBe(blob)

    const read = await agent.get("/auth/session").expect(200)
    expect(read.body.user.name).toBe("Alice")
    expect(sessionCookies(read)).toEqual([])
  })

  test("when the session shrinks, the unused chunks are cleared in the same response", async () => {
    let slim = false
    const { app } = chunkyApp({ slim: () => slim })
    const agent = agentFor(app)
    const chunks = sessionCookies(await signedIn(agent)).map((cookie) => cookie.name)
    slim = true
    const response = await agent.get("/auth/session").expect(200)
    expect(response.body.user.name).toBe("Alice")
    const whole = sessionValue(response)
    expect(whole).toBeDefined()
    expect((await openSession(whole))?.blob).toBeUndefined()
    expect(chunks.length).toBeGreaterThanOrEqual(2)
    for (const name of chunks) expect(isCleared(findCookie(response, name))).toBe(true)
    const after = await agent.get("/auth/session").expect(200)
    expect(after.body.user.name).toBe("Alice")
  })

  test("chunks that do not decrypt together read as signed out and are cleared", async () => {
    const token = await mintSession(ALICE_TOKEN)
    const half = Math.floor(token.length / 2)
    const cookies = { [`${SESSION_COOKIE}.0`]: token.slice(0, half), [`${SESSION_COOKIE}.1`]: `${token.slice(half)}x` }
    const response = await request(makeApp(testConfig())).get("/auth/session").set("Host", HOST).set("Cookie", cookieHeader(cookies)).expect(200)
    expect(response.text).toBe("null")
    expect(isCleared(findCookie(response, `${SESSION_COOKIE}.0`))).toBe(true)
    expect(isCleared(findCookie(response, `${SESSION_COOKIE}.1`))).toBe(true)
  })

  test("chunks put back together in index order open the session", async () => {
    const token = await mintSession(ALICE_TOKEN)
    const half = Math.floor(token.length / 2)
    const header = `${SESSION_COOKIE}.1=${token.slice(half)}; ${SESSION_COOKIE}.0=${token.slice(0, half)}`
    const response = await request(makeApp(testConfig())).get("/auth/session").set("Host", HOST).set("Cookie", header).expect(200)
    expect(response.body.user.name).toBe("Alice")
  })
})
