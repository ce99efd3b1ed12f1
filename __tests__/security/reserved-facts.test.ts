/**
 * Issue #24, problem 8: how and when the user signed in (`amr`, `authTime`) and the session id
 * are Gatehouse's. A common `jwt` callback merges the browser's update data into the token
 * (`{ ...token, ...session }`), and a `session` callback may return other values: neither changes
 * what the app and `requireAuth({ maxAge })` judge. Replayed end to end as a browser would, on
 * SQLite with cookie sessions and on PostgreSQL with database sessions (both with Redis).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { Express } from "express"
import type { AuthConfig, Session } from "../../lib/types.js"
import { request, type Agent } from "../helpers/app.js"
import { SETUPS, freshName, signIn, twoFactorApp } from "../two-factor/support.js"

const setups = [SETUPS[0]!, SETUPS[1]!]

afterEach(() => {
  jest.restoreAllMocks()
})

/** The app's callbacks as many apps write them: updates merged in, the token's session id shown. */
const merging: AuthConfig["callbacks"] = {
  jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token),
  session: ({ session, token, trigger, newSession }) => ({
    ...session,
    ...(trigger === "update" && (newSession as object)),
    ...(token && { sid: token.sid }),
  }),
}

async function update(agent: Agent, data: unknown): Promise<Session> {
  const csrf = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  return (await agent.post("/auth/session").send({ csrfToken: csrf, data }).expect(200)).body as Session
}

const me = async (agent: Agent) => (await agent.get("/api/me").set("Accept", "application/json").expect(200)).body as Session & { sid?: string }

describe.each(setups)("reserved session facts on $name", (setup) => {
  beforeAll(() => setup.open(), 30_000)
  afterAll(() => setup.close())

  const app = (callbacks: AuthConfig["callbacks"]): Express => twoFactorApp(setup.config({ callbacks }))

  it("a browser's update claiming a second factor and a fresh sign-in changes neither amr nor authTime", async () => {
    const agent = request.agent(app(merging))
    await signIn(agent, freshName("upd"))
    const before = await me(agent)
    expect(before.amr).toEqual(["pwd"])
    const answered = await update(agent, { amr: ["pwd", "otp"], authTime: (before.authTime as number) + 3600, theme: "dark" })
    // The app's own data is merged as before; Gatehouse's facts are not.
    expect(answered.amr).toEqual(["pwd"])
    expect(answered.authTime).toBe(before.authTime)
    expect((answered as Session & { theme?: string }).theme).toBe("dark")
    const after = await me(agent)
    expect(after.amr).toEqual(["pwd"])
    expect(after.authTime).toBe(before.authTime)
  })

  it("requireAuth({ maxAge }) still refuses an old sign-in after the browser posts authTime: now", async () => {
    const agent = request.agent(app(merging))
    await signIn(agent, freshName("old"))
    const later = Date.now() + 6 * 60_000
    jest.spyOn(Date, "now").mockReturnValue(later)
    await update(agent, { authTime: Math.floor(later / 1000), amr: ["pwd", "otp"] })
    const refused = await agent.get("/billing").set("Accept", "application/json").expect(403)
    expect(refused.body.error.type).toBe("RecentSignInRequired")
  })

  it("a session callback returning other amr/authTime does not change what requireAuth uses", async () => {
    const agent = request.agent(
      app({
        session: ({ session }) => ({ ...session, amr: ["pwd", "otp", "hwk"], authTime: Math.floor(Date.now() / 1000) }),
      }),
    )
    await signIn(agent, freshName("cb"))
    expect((await me(agent)).amr).toEqual(["pwd"])
    jest.spyOn(Date, "now").mockReturnValue(Date.now() + 6 * 60_000)
    await agent.get("/billing").set("Accept", "application/json").expect(403)
  })

  it("a session callback changing the session's amr in place changes nothing for the next read", async () => {
    const agent = request.agent(
      app({
        session: ({ session }) => {
          session.amr?.push("otp")
          return session
        },
      }),
    )
    await signIn(agent, freshName("push"))
    expect((await me(agent)).amr).toEqual(["pwd"])
    expect((await me(agent)).amr).toEqual(["pwd"])
  })

  it("a jwt callback at sign-in sets neither amr nor authTime", async () => {
    const atSignIn = (trigger?: string) => trigger === "signIn" || trigger === "signUp"
    const agent = request.agent(app({ jwt: ({ token, trigger }) => (atSignIn(trigger) ? { ...token, amr: ["pwd", "otp"], authTime: 1 } : token) }))
    await signIn(agent, freshName("at"))
    const session = await me(agent)
    expect(session.amr).toEqual(["pwd"])
    expect(Math.abs((session.authTime as number) - Date.now() / 1000)).toBeLessThan(60)
  })
})

describe("the session id of a cookie session", () => {
  const setup = SETUPS[0]!
  beforeAll(() => setup.open(), 30_000)
  afterAll(() => setup.close())

  it("an update naming another session id keeps the session's own, and a callback cannot choose one at sign-in", async () => {
    const agent = request.agent(
      twoFactorApp(
        setup.config({
          callbacks: {
            ...merging,
            jwt: ({ token, trigger, session }) => (trigger === "signUp" || trigger === "signIn" ? { ...token, sid: "chosen-by-callback" } : trigger === "update" ? { ...token, ...(session as object) } : token),
          },
        }),
      ),
    )
    await signIn(agent, freshName("sid"))
    const own = (await me(agent)).sid
    expect(typeof own).toBe("string")
    expect(own).not.toBe("chosen-by-callback")
    await update(agent, { sid: "someone-elses" })
    expect((await me(agent)).sid).toBe(own)
  })
})
