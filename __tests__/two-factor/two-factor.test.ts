/**
 * Issue #16 end to end over HTTP, on SQLite (cookie sessions) and PostgreSQL (database sessions)
 * with Redis as the shared store, and on the memory adapter: enrolment, the pending state after
 * the first factor, codes (window edges, replay), recovery codes (single use), the limiter, the
 * 10-minute expiry, turning it off. Every code is computed at test time from the secret read off
 * the setup page.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { codeAt } from "../../lib/two-factor/totp.js"
import { request } from "../helpers/app.js"
import { SETUPS, awayFromStepEdge, codeFor, enrol, enrolledUser, field, freshName, signIn, submitCode, twoFactorApp } from "./support.js"

afterEach(() => {
  jest.restoreAllMocks()
})

describe.each(SETUPS)("two-factor sign-in ($name)", (setup) => {
  beforeAll(() => setup.open(), 30_000)
  afterAll(() => setup.close())

  it("enrolment: signed-in only; a QR code as inline SVG, the secret as text, and a first code to confirm", async () => {
    const app = twoFactorApp(setup.config())
    const anonymous = await request(app).get("/auth/two-factor/setup").expect(302)
    expect(anonymous.headers.location).toMatch(/\/auth\/signin\?callbackUrl=.*two-factor%2Fsetup/)

    const agent = request.agent(app)
    await signIn(agent, freshName("enrol"))
    const page = (await agent.get("/auth/two-factor/setup").expect(200)).text
    expect(page).toMatch(/<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    const secret = (/id="two-factor-secret">([A-Z2-7 ]+)</.exec(page)?.[1] ?? "").replace(/ /g, "")
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)

    // A wrong first code leaves it off, and says so on the page.
    const wrong = await agent
      .post("/auth/two-factor/setup")
      .type("form")
      .send({ csrfToken: field(page, "csrfToken"), setupToken: field(page, "setupToken"), intent: "enable", code: codeFor(secret, 5) })
      .expect(400)
    expect(wrong.text).toContain("That code is not right")
    expect(wrong.text).toContain(secret.slice(0, 4))
    const stillOff = (await agent.get("/auth/two-factor/setup").expect(200)).text
    expect(stillOff).toContain('id="two-factor-secret"')

    const { codes } = await enrol(agent)
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    const manage = (await agent.get("/auth/two-factor/setup").expect(200)).text
    expect(manage).toMatch(/id="recovery-codes-left">10</)
  })

  it("after the first factor the sign-in is pending: req.auth is null, requireAuth refuses, the browser goes to the two-factor page", async () => {
    const app = twoFactorApp(setup.config())
    const { username, secret } = await enrolledUser(app)
    const agent = request.agent(app)
    const first = await signIn(agent, username)
    expect(first.headers.location).toMatch(/\/auth\/two-factor$/)
    expect(String(first.headers["set-cookie"])).not.toMatch(/authjs\.session-token=[^;]/)
    expect((await agent.get("/").expect(200)).body.auth).toBeNull()
    await agent.get("/api/me").set("Accept", "application/json").expect(401)
    const page = await agent.get("/auth/two-factor").expect(200)
    expect(page.text).toContain('autocomplete="one-time-code"')

    await awayFromStepEdge()
    const done = await submitCode(agent, codeFor(secret, -1), 302)
    expect(done.headers.location).toMatch(/\/api\/me$/)
    expect(String(done.headers["set-cookie"])).toMatch(/authjs\.session-token=[^;]/)
    const me = (await agent.get("/api/me").set("Accept", "application/json").expect(200)).body
    expect(me.user.name).toBe(username)
    expect(me.amr).toEqual(["pwd", "otp"])
    expect(Math.abs(me.authTime - Date.now() / 1000)).toBeLessThan(60)
    // The pending sign-in is gone: the page now says to sign in again.
    const again = await agent.get("/auth/two-factor").expect(302)
    expect(again.headers.location).toMatch(/error=TwoFactorExpired/)
  })

  it("a pending cookie works once: replayed after the sign-in completed, it starts no second session", async () => {
    const app = twoFactorApp(setup.config())
    const { username, secret } = await enrolledUser(app)
    const agent = request.agent(app)
    const first = await signIn(agent, username)
    const pendingCookies = (first.headers["set-cookie"] as unknown as string[]).map((line) => line.split(";")[0]).filter((pair) => pair.startsWith("authjs.two-factor"))
    expect(pendingCookies.length).toBeGreaterThan(0)
    await awayFromStepEdge()
    await submitCode(agent, codeFor(secret, -1), 302)

    const thief = request.agent(app)
    const page = await thief.get("/auth/two-factor").set("Cookie", pendingCookies.join("; ")).expect(200)
    const csrfCookie = (page.headers["set-cookie"] as unknown as string[]).map((line) => line.split(";")[0]).join("; ")
    const replay = await thief
      .post("/auth/two-factor")
      .set("Cookie", `${pendingCookies.join("; ")}; ${csrfCookie}`)
      .type("form")
      .send({ csrfToken: field(page.text, "csrfToken"), code: codeFor(secret, 1) })
      .expect(302)
    expect(replay.headers.location).toMatch(/error=TwoFactorExpired/)
  })

  it("the window: one step either side is accepted, two steps away is not; a code is accepted once", async () => {
    const app = twoFactorApp(setup.config())
    const { username, secret } = await enrolledUser(app)
    await awayFromStepEdge()
    for (const steps of [-2, 2]) {
      const agent = request.agent(app)
      await signIn(agent, username)
      const refused = await submitCode(agent, codeFor(secret, steps), 400)
      expect(refused.text).toContain("That code is not right")
    }
    const early = request.agent(app)
    await signIn(early, username)
    await submitCode(early, codeFor(secret, 1), 302)

    const late = request.agent(app)
    await signIn(late, username)
    await submitCode(late, codeFor(secret, -1), 302)

    // The same code again, in its window, from another browser: refused as a replay.
    const replay = request.agent(app)
    await signIn(replay, username)
    const refused = await submitCode(replay, codeFor(secret, -1), 400)
    expect(refused.text).toContain("That code was used already")
  })

  it("a recovery code signs in once; the same one again is refused as used", async () => {
    const app = twoFactorApp(setup.config())
    const { username, codes } = await enrolledUser(app)
    const agent = request.agent(app)
    await signIn(agent, username)
    await submitCode(agent, (codes[3] as string).toUpperCase(), 302)
    const me = (await agent.get("/api/me").set("Accept", "application/json").expect(200)).body
    expect(me.amr).toEqual(["pwd", "recovery"])

    const again = request.agent(app)
    await signIn(again, username)
    const refused = await submitCode(again, codes[3] as string, 400)
    expect(refused.text).toContain("That recovery code was used already")
    const wrong = await submitCode(again, "zzzz-zzzz-zzzz", 400)
    expect(wrong.text).toContain("That code is not right")
  })

  it("brute force is stopped by the limiter: after 5 wrong codes even the right one is refused (429)", async () => {
    const app = twoFactorApp(setup.config())
    const { username, secret } = await enrolledUser(app)
    const agent = request.agent(app)
    await signIn(agent, username)
    for (let i = 0; i < 5; i++) await submitCode(agent, "000000", 400)
    await awayFromStepEdge()
    const limited = await submitCode(agent, codeFor(secret, -1), 429)
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/)
    expect(limited.text).toContain("Too many attempts")
    await agent.get("/api/me").set("Accept", "application/json").expect(401)
  })

  it("codes are limited per client address too: guesses spread over users are stopped (rateLimit.twoFactor.ip)", async () => {
    const app = twoFactorApp(setup.config({ rateLimit: { enabled: true, credentials: false, twoFactor: { ip: { limit: 3, window: 60 }, identifier: false } } }))
    const first = await enrolledUser(app)
    const second = await enrolledUser(app)
    // Enrolment confirmed one code each from this address: one guess is left.
    const a = request.agent(app)
    await signIn(a, first.username)
    await submitCode(a, "000000", 400)
    const b = request.agent(app)
    await signIn(b, second.username)
    await awayFromStepEdge()
    const limited = await submitCode(b, codeFor(second.secret, -1), 429)
    expect(limited.text).toContain("Too many attempts")
  })

  it("the pending state expires after 10 minutes: the right code then sends the person to sign in again", async () => {
    const app = twoFactorApp(setup.config())
    const { username, secret } = await enrolledUser(app)
    const agent = request.agent(app)
    await signIn(agent, username)
    const page = (await agent.get("/auth/two-factor").expect(200)).text
    const later = Date.now() + 10 * 60_000 + 5_000
    jest.spyOn(Date, "now").mockReturnValue(later)
    const expired = await agent.post("/auth/two-factor").type("form").send({ csrfToken: field(page, "csrfToken"), code: codeAt(secret, later) }).expect(302)
    expect(expired.headers.location).toMatch(/\/auth\/signin\?.*error=TwoFactorExpired/)
    jest.restoreAllMocks()
    const signinPage = await agent.get(new URL(expired.headers.location as string).pathname + new URL(expired.headers.location as string).search).expect(200)
    expect(signinPage.text).toContain("The sign-in took too long to finish")
    await agent.get("/api/me").set("Accept", "application/json").expect(401)
  })

  it("turning it off needs a current code or a recovery code; then sign-in has one step again", async () => {
    const events: string[] = []
    const app = twoFactorApp(setup.config({ events: { twoFactorDisabled: ({ userId }) => void events.push(`off:${userId}`) } }))
    const { username, secret } = await enrolledUser(app)
    const agent = request.agent(app)
    await signIn(agent, username)
    await awayFromStepEdge()
    await submitCode(agent, codeFor(secret, 1), 302)
    const manage = (await agent.get("/auth/two-factor/setup").expect(200)).text
    const wrong = await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: field(manage, "csrfToken"), intent: "disable", code: "123456" }).expect(400)
    expect(wrong.text).toContain("That code is not right")
    expect(events).toEqual([])
    await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: field(manage, "csrfToken"), intent: "disable", code: codeFor(secret, -1) }).expect(200)
    expect(events).toEqual([`off:u-${username}`])

    const next = request.agent(app)
    const first = await signIn(next, username)
    expect(first.headers.location).toMatch(/\/api\/me$/)
  })
})


