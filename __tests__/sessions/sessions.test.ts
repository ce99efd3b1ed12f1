/**
 * Issue #14 over HTTP, on every setup (cookie strategy with the memory store and with Redis;
 * database strategy on the memory adapter, SQLite, PostgreSQL and MariaDB): list, revoke one,
 * revoke the others, revoke a user, sign-out of a copied cookie; the server helpers; bad input
 * (unknown, malformed and foreign ids, no CSRF, signed out): named errors, nothing revealed.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import type { Express } from "express"
import { listSessions, revokeOtherSessions, revokeSession, revokeUserSessions, isAuthError } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { makeApp, signInAs } from "../helpers/app.js"
import { agentFor, SESSION } from "../database/engines.js"
import { sessionCookieHeader, setup, SETUP_NAMES } from "./setups.js"

type Agent = ReturnType<typeof agentFor>
const JSON_ACCEPT = "application/json"

/** The usual app plus the server helpers on the app's own routes. */
function appWith(config: AuthConfig): Express {
  const app = makeApp(config)
  const answer = (work: (req: Parameters<typeof listSessions>[0]) => Promise<unknown>) => (req: Parameters<typeof listSessions>[0], res: { status(code: number): { json(body: unknown): void } }) => {
    work(req).then(
      (body) => res.status(200).json(body ?? null),
      (error: unknown) => res.status(isAuthError(error) ? 400 : 500).json({ type: isAuthError(error) ? error.type : String(error) }),
    )
  }
  app.get("/devices", answer((req) => listSessions(req, config)) as never)
  app.post("/devices/others", answer((req) => revokeOtherSessions(req, config)) as never)
  app.post("/devices/end/:id", answer((req) => revokeSession(req, config, (req as unknown as { params: { id: string } }).params.id)) as never)
  return app
}

/** The session cookie each device got at sign-in (a Cookie header value), to replay it elsewhere. */
const cookies = new WeakMap<Agent, string>()

async function device(app: Express, user: string, userAgent: string): Promise<Agent> {
  const agent = agentFor(app).set("User-Agent", userAgent) as Agent
  const response = await signInAs(agent, user)
  expect(response.status).toBe(302)
  const cookie = sessionCookieHeader(response)
  expect(cookie).toMatch(new RegExp(`^${SESSION}`))
  cookies.set(agent, cookie)
  return agent
}

const signedIn = async (agent: Agent) => (await agent.get("/api/me").set("Accept", JSON_ACCEPT)).status === 200

async function list(agent: Agent) {
  const response = await agent.get("/auth/sessions").set("Accept", JSON_ACCEPT).expect(200)
  return response.body as Array<{ id: string; current: boolean; createdAt: string | null; lastSeenAt: string | null; expires: string; userAgent: string | null; ip: string | null }>
}

async function csrf(agent: Agent): Promise<string> {
  return (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
}

async function expectStatus<R extends { status: number; body: unknown; text?: string }>(pending: Promise<R>, status: number): Promise<R> {
  const response = await pending
  expect([response.status, response.status === status ? "" : response.text]).toEqual([status, ""])
  return response
}

async function revoke(agent: Agent, form: Record<string, string>, accept = JSON_ACCEPT) {
  const csrfToken = await csrf(agent)
  return agent.post("/auth/sessions/revoke").set("Accept", accept).type("form").send({ csrfToken, ...form })
}

describe.each(SETUP_NAMES)("sessions and devices: %s", (name) => {
  const s = setup(name)
  beforeAll(() => s.open(), 30_000)
  afterAll(() => s.close())

  it("GET /auth/sessions lists the user's live sessions, newest first, this one marked, with user agent and address; no token", async () => {
    const app = appWith(await s.config())
    const laptop = await device(app, "alice", "Laptop/1.0")
    await new Promise((resume) => setTimeout(resume, 5))
    const phone = await device(app, "alice", "Phone/2.0")
    await device(app, "bob", "Bob/1.0")
    const sessions = await list(phone)
    expect(sessions).toHaveLength(2)
    expect(sessions.map((entry) => [entry.userAgent, entry.current])).toEqual([["Phone/2.0", true], ["Laptop/1.0", false]])
    for (const entry of sessions) {
      expect(Object.keys(entry).sort()).toEqual(["createdAt", "current", "expires", "id", "ip", "lastSeenAt", "userAgent"])
      expect(entry.id).toMatch(/^[A-Za-z0-9_-]{16,64}$/)
      expect(entry.ip).toMatch(/127\.0\.0\.1|::1/)
      expect(Date.parse(entry.createdAt!)).toBeLessThanOrEqual(Date.now())
      expect(Date.parse(entry.expires)).toBeGreaterThan(Date.now() + 29 * 86_400_000)
    }
    const fromLaptop = await list(laptop)
    expect(fromLaptop.find((entry) => entry.current)?.userAgent).toBe("Laptop/1.0")
    // No cookie value (the session token of a database session, or the JWE) is in the answer.
    const raw = JSON.stringify(await list(laptop))
    for (const pair of cookies.get(laptop)!.split("; ")) expect(raw).not.toContain(pair.slice(pair.indexOf("=") + 1))
  })

  it("POST /auth/sessions/revoke id=<sid> ends that session at once; the others stay; the revokeSession event fires", async () => {
    const events: unknown[] = []
    const app = appWith(await s.config({ events: { revokeSession: (message) => void events.push(message) } }))
    const laptop = await device(app, "alice", "Laptop/1.0")
    const phone = await device(app, "alice", "Phone/2.0")
    const phoneId = (await list(phone)).find((entry) => entry.current)!.id
    const response = await expectStatus(revoke(laptop, { id: phoneId }), 200)
    expect(response.body).toEqual({ revoked: 1 })
    expect(await signedIn(phone)).toBe(false)
    expect(await signedIn(laptop)).toBe(true)
    expect((await list(laptop)).map((entry) => entry.userAgent)).toEqual(["Laptop/1.0"])
    expect(events).toEqual([expect.objectContaining({ scope: "session", sessionId: phoneId, userId: expect.any(String) })])
  })

  it("others=1 ends every other session of the user, keeps this one and other users' sessions", async () => {
    const app = appWith(await s.config())
    const laptop = await device(app, "alice", "Laptop/1.0")
    const phone = await device(app, "alice", "Phone/2.0")
    const tablet = await device(app, "alice", "Tablet/3.0")
    const bob = await device(app, "bob", "Bob/1.0")
    const response = await expectStatus(revoke(laptop, { others: "1" }), 200)
    expect(response.body).toEqual({ revoked: 2 })
    expect([await signedIn(laptop), await signedIn(phone), await signedIn(tablet), await signedIn(bob)]).toEqual([true, false, false, true])
    expect((await list(laptop)).map((entry) => entry.current)).toEqual([true])
  })

  it("revokeUserSessions(userId, config) ends every session of that user only", async () => {
    const config = await s.config()
    const app = appWith(config)
    const laptop = await device(app, "alice", "Laptop/1.0")
    const phone = await device(app, "alice", "Phone/2.0")
    const bob = await device(app, "bob", "Bob/1.0")
    const userId = s.engine ? (await s.engine.sessions()).find((row) => row.userId.includes("alice"))?.userId ?? "user-alice" : "user-alice"
    await revokeUserSessions(userId, config)
    expect([await signedIn(laptop), await signedIn(phone), await signedIn(bob)]).toEqual([false, false, true])
    // A new sign-in works afterwards.
    expect(await signedIn(await device(app, "alice", "Laptop/1.0"))).toBe(true)
  })

  it("sign-out ends the session everywhere: a copy of the cookie taken before reads as signed out", async () => {
    const app = appWith(await s.config())
    const browser = await device(app, "alice", "Laptop/1.0")
    const copied = cookies.get(browser)!
    const replay = () => agentFor(app).get("/api/me").set("Accept", JSON_ACCEPT).set("Cookie", copied)
    expect((await replay()).status).toBe(200)
    const csrfToken = await csrf(browser)
    await browser.post("/auth/signout").type("form").send({ csrfToken }).expect(302)
    expect((await replay()).status).toBe(401)
  })

  it("the server helpers: listSessions, revokeSession, revokeOtherSessions on the app's routes", async () => {
    const app = appWith(await s.config())
    const laptop = await device(app, "alice", "Laptop/1.0")
    const phone = await device(app, "alice", "Phone/2.0")
    const tablet = await device(app, "alice", "Tablet/3.0")
    const listed = (await laptop.get("/devices").expect(200)).body as Array<{ id: string; userAgent: string; current: boolean }>
    expect(listed.map((entry) => entry.userAgent)).toEqual(["Tablet/3.0", "Phone/2.0", "Laptop/1.0"])
    await laptop.post(`/devices/end/${listed.find((entry) => entry.userAgent === "Phone/2.0")!.id}`).expect(200)
    expect(await signedIn(phone)).toBe(false)
    expect(await signedIn(tablet)).toBe(true)
    expect((await laptop.post("/devices/others").expect(200)).body).toBe(1)
    expect(await signedIn(tablet)).toBe(false)
    expect(await signedIn(laptop)).toBe(true)
    // Signed out: a named error.
    expect((await agentFor(app).get("/devices").expect(400)).body).toEqual({ type: "SessionRequired" })
  })

  describe("bad input: named errors, no 500, nothing revealed", () => {
    it("another user's session id, an unknown one and a malformed one; the foreign session stays", async () => {
      const app = appWith(await s.config())
      const alice = await device(app, "alice", "Laptop/1.0")
      const bob = await device(app, "bob", "Bob/1.0")
      const bobId = (await list(bob))[0]!.id
      const foreign = await expectStatus(revoke(alice, { id: bobId }), 404)
      const unknown = await expectStatus(revoke(alice, { id: "A".repeat(24) }), 404)
      expect(foreign.body).toEqual(unknown.body)
      expect(foreign.body.error.type).toBe("SessionNotFound")
      expect(await signedIn(bob)).toBe(true)
      for (const id of ["", "x", "../../etc", "A".repeat(500), "ab cd efgh ijkl mnop"]) {
        const malformed = await revoke(alice, { id })
        expect(malformed.status).toBe(400)
        expect(malformed.body.error.type).toBe("InvalidRequest")
      }
      expect((await revoke(alice, {})).status).toBe(400)
      expect((await revoke(alice, { id: bobId, others: "1" })).status).toBe(400)
      expect((await alice.post(`/devices/end/${bobId}`).expect(400)).body).toEqual({ type: "SessionNotFound" })
      expect(await signedIn(bob)).toBe(true)
      expect(await signedIn(alice)).toBe(true)
    })

    it("no CSRF token: 403 MissingCSRF, nothing revoked; signed out: 401 SessionRequired", async () => {
      const app = appWith(await s.config())
      const alice = await device(app, "alice", "Laptop/1.0")
      const phone = await device(app, "alice", "Phone/2.0")
      const phoneId = (await list(phone))[0]!.id
      const noCsrf = await alice.post("/auth/sessions/revoke").set("Accept", JSON_ACCEPT).type("form").send({ id: phoneId })
      expect(noCsrf.status).toBe(403)
      expect(noCsrf.body.error.type).toBe("MissingCSRF")
      expect(await signedIn(phone)).toBe(true)
      const stranger = agentFor(app)
      const listed = await stranger.get("/auth/sessions").set("Accept", JSON_ACCEPT)
      expect(listed.status).toBe(401)
      expect(listed.body.error.type).toBe("SessionRequired")
      const posted = await revoke(stranger, { id: phoneId })
      expect(posted.status).toBe(401)
      expect(posted.body.error.type).toBe("SessionRequired")
      expect(await signedIn(phone)).toBe(true)
      expect((await stranger.get("/auth/sessions/other").set("Accept", JSON_ACCEPT)).status).toBe(404)
    })

    it("a form post is redirected back to a same-origin callbackUrl; another origin's is replaced by the site", async () => {
      const app = appWith(await s.config())
      const alice = await device(app, "alice", "Laptop/1.0")
      const phone = await device(app, "alice", "Phone/2.0")
      const tablet = await device(app, "alice", "Tablet/3.0")
      const phoneId = (await list(phone)).find((entry) => entry.current)!.id
      const back = await expectStatus(revoke(alice, { id: phoneId, callbackUrl: "/account/devices" }, "text/html"), 302)
      expect(back.headers.location).toBe("http://app.test/account/devices")
      const tabletId = (await list(tablet)).find((entry) => entry.current)!.id
      const away = await expectStatus(revoke(alice, { id: tabletId, callbackUrl: "https://evil.example/x" }, "text/html"), 302)
      expect(away.headers.location).toBe("http://app.test/")
      // Without callbackUrl: back to the page the form was on (Referer), same-origin rules too.
      const watch = await device(app, "alice", "Watch/1.0")
      const watchId = (await list(watch)).find((entry) => entry.current)!.id
      const csrfToken = await csrf(alice)
      const referred = await alice.post("/auth/sessions/revoke").set("Referer", "http://app.test/account/devices?tab=2").type("form").send({ csrfToken, id: watchId })
      expect([referred.status, referred.headers.location]).toEqual([302, "http://app.test/account/devices?tab=2"])
      const other = await device(app, "alice", "Other/1.0")
      const otherId = (await list(other)).find((entry) => entry.current)!.id
      const foreign = await alice.post("/auth/sessions/revoke").set("Referer", "https://evil.example/page").type("form").send({ csrfToken: await csrf(alice), id: otherId })
      expect([foreign.status, foreign.headers.location]).toEqual([302, "http://app.test/"])
    })
  })
})
