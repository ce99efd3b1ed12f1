/**
 * Cookies made before session ids (by an earlier Gatehouse, or by Auth.js): valid until they
 * expire, upgraded with a `sid` on their next refresh (then listed and revocable one by one), and
 * ended by revokeUserSessions like every other session of the user.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { encode as authEncode } from "@auth/core/jwt"
import { revokeUserSessions } from "../../lib/index.js"
import { makeApp, testConfig, SECRET } from "../helpers/app.js"
import { ALICE_TOKEN, SESSION_COOKIE, agentFor, cookieHeader, mintSession, openSession, sessionValue } from "../integration/support.js"

const DAY = 86_400_000
afterEach(() => {
  jest.restoreAllMocks()
})

async function authJsCookie(issuedAt: number): Promise<string> {
  const spy = jest.spyOn(Date, "now").mockReturnValue(issuedAt)
  try {
    return await authEncode({ token: ALICE_TOKEN, secret: SECRET, salt: SESSION_COOKIE })
  } finally {
    spy.mockRestore()
  }
}

describe.each([
  ["an earlier Gatehouse", (issuedAt: number) => mintSession(ALICE_TOKEN, { issuedAt })],
  ["Auth.js", authJsCookie],
])("a session cookie made by %s (no sid)", (_maker, make) => {
  it("is valid, gets a sid on its next refresh, and is then listed as this session", async () => {
    // updateAge 0: every read refreshes (jose, under Auth.js's encode, takes the time from new Date()).
    const config = testConfig({ session: { updateAge: 0 } })
    const app = makeApp(config)
    const old = await make(Date.now() - 2 * DAY)
    expect((await openSession(old))?.sid).toBeUndefined()
    const first = await agentFor(app).get("/api/me").set("Accept", "application/json").set("Cookie", cookieHeader({ [SESSION_COOKIE]: old })).expect(200)
    const upgraded = sessionValue(first)
    const claims = await openSession(upgraded)
    expect(claims?.sid).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(claims?.sub).toBe("user-alice")
    const listed = await agentFor(app).get("/auth/sessions").set("Accept", "application/json").set("Cookie", cookieHeader({ [SESSION_COOKIE]: upgraded! })).expect(200)
    expect(listed.body).toEqual([expect.objectContaining({ id: claims?.sid, current: true })])
  })

  it("is ended by revokeUserSessions, though it has no sid", async () => {
    const config = testConfig()
    const app = makeApp(config)
    const old = await make(Date.now() - 60_000)
    const read = () => agentFor(app).get("/api/me").set("Accept", "application/json").set("Cookie", cookieHeader({ [SESSION_COOKIE]: old }))
    await read().expect(200)
    await revokeUserSessions("user-alice", config)
    await read().expect(401)
  })
})
