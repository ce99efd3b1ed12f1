/**
 * Issue #24: `twoFactor.required` holds no session until the user enrols. After the first factor
 * the sign-in waits in a cookie of its own: nobody is signed in (`GET /auth/session` is null, a
 * protected route refuses), only the setup page accepts it, and a confirmed enrolment starts the
 * session (`amr` with `otp`) and leads on to the callbackUrl. On SQLite with cookie sessions and on
 * PostgreSQL with database sessions, both with Redis.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { Express } from "express"
import type { Session } from "../../lib/types.js"
import { request, type Agent } from "../helpers/app.js"
import { SETUPS, enrol, freshName, signIn, twoFactorApp } from "./support.js"

const setups = [SETUPS[0]!, SETUPS[1]!]

afterEach(() => {
  jest.restoreAllMocks()
})

/** The enrolment cookie the browser holds (name=value), read from the sign-in's response. */
function enrolmentCookieOf(response: { headers: Record<string, unknown> }): string {
  const set = (response.headers["set-cookie"] as string[] | undefined) ?? []
  const found = set.find((line) => /two-factor-setup=[^;]/.test(line))
  if (!found) throw new Error(`no enrolment cookie in ${JSON.stringify(set)}`)
  return found.split(";")[0] as string
}

describe.each(setups)("twoFactor.required on $name", (setup) => {
  let app: Express
  beforeAll(async () => {
    await setup.open()
    app = twoFactorApp(setup.config({ twoFactor: { issuer: "Test", required: true } }))
  }, 30_000)
  afterAll(() => setup.close())

  /** A browser after the first factor; `cookie()`: the enrolment cookie it was given. */
  async function waitingForEnrolment(): Promise<{ agent: Agent; cookie: () => string }> {
    const agent = request.agent(app)
    const first = await signIn(agent, freshName("req"))
    const target = new URL(first.headers.location as string)
    expect(target.pathname).toBe("/auth/two-factor/setup")
    return { agent, cookie: () => enrolmentCookieOf(first) }
  }

  it("after the first factor and before enrolment nobody is signed in: GET /auth/session is null, protected routes refuse", async () => {
    const { agent } = await waitingForEnrolment()
    expect((await agent.get("/auth/session").expect(200)).body).toBeNull()
    const refused = await agent.get("/api/me").set("Accept", "application/json").expect(401)
    expect(refused.body.error.type).toBe("SessionRequired")
    expect((await agent.get("/").expect(200)).body.auth).toBeNull()
    // A session update is no way in either.
    const csrf = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    expect((await agent.post("/auth/session").send({ csrfToken: csrf, data: {} }).expect(200)).body).toBeNull()
  })

  it("the setup page accepts the waiting sign-in; the confirmed enrolment signs in with otp and leads on to the callbackUrl", async () => {
    const { agent } = await waitingForEnrolment()
    const { page } = await enrol(agent)
    expect(page).toContain('name="setupToken"')
    const me = (await agent.get("/api/me").set("Accept", "application/json").expect(200)).body as Session
    expect(me.amr).toEqual(["pwd", "otp"])
    expect(((await agent.get("/auth/session").expect(200)).body as Session).amr).toEqual(["pwd", "otp"])
  })

  it("the page shown after enrolment (the recovery codes) continues to where the sign-in was going", async () => {
    const { agent } = await waitingForEnrolment()
    // The form says /elsewhere; the waiting sign-in's own callbackUrl wins.
    const { done } = await enrol(agent, "/elsewhere")
    const next = /<a class="button" href="([^"]+)"/.exec(done)?.[1] ?? ""
    expect(new URL(next, "http://x").pathname).toBe("/api/me")
  })

  it("the waiting sign-in works once: its cookie replayed after the enrolment starts no session", async () => {
    const { agent, cookie: cookieOf } = await waitingForEnrolment()
    const cookie = cookieOf()
    await enrol(agent)
    const replay = await request(app).get("/auth/two-factor/setup").set("Cookie", cookie).set("Accept", "text/html").expect(302)
    expect(new URL(replay.headers.location as string).searchParams.get("error")).toBe("TwoFactorExpired")
    const stranger = request.agent(app)
    await stranger.get("/auth/two-factor/setup").set("Cookie", cookie).expect(302)
    expect((await stranger.get("/auth/session").set("Cookie", cookie).expect(200)).body).toBeNull()
  })

  it("older than 10 minutes, the waiting sign-in is refused (TwoFactorExpired: sign in again)", async () => {
    const cookie = (await waitingForEnrolment()).cookie()
    jest.spyOn(Date, "now").mockReturnValue(Date.now() + 11 * 60_000)
    const late = await request(app).get("/auth/two-factor/setup").set("Cookie", cookie).set("Accept", "text/html").expect(302)
    const target = new URL(late.headers.location as string)
    expect(target.pathname).toBe("/auth/signin")
    expect(target.searchParams.get("error")).toBe("TwoFactorExpired")
  })

  it("signing out ends the waiting sign-in: the setup page then sends to sign in", async () => {
    const { agent } = await waitingForEnrolment()
    const csrf = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    await agent.post("/auth/signout").type("form").send({ csrfToken: csrf }).expect(302)
    const after = await agent.get("/auth/two-factor/setup").set("Accept", "text/html").expect(302)
    expect(new URL(after.headers.location as string).pathname).toBe("/auth/signin")
    expect(new URL(after.headers.location as string).searchParams.get("error")).toBeNull()
  })

  it("a user the policy does not pick signs in at once", async () => {
    const picky = twoFactorApp(setup.config({ twoFactor: { issuer: "Test", required: (user) => Boolean(user.name?.startsWith("must")) } }))
    const agent = request.agent(picky)
    const first = await signIn(agent, freshName("free"))
    expect(new URL(first.headers.location as string).pathname).toBe("/api/me")
    await agent.get("/api/me").set("Accept", "application/json").expect(200)
  })
})
