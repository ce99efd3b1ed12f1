/**
 * Traces and metrics of a credentials sign-in, a refused one, a rate-limited one and the session
 * reads of requireAuth, read from the OpenTelemetry SDK's in-memory exporters; and what must never
 * be in them (the password, the session cookie, the CSRF token, the email address).
 */
import { jest } from "@jest/globals"
import express from "express"
import { SpanKind, SpanStatusCode } from "@opentelemetry/api"
import { authRouter, authSession, requireAuth, revokeUserSessions } from "../../lib/index.js"
import { USERS, csrfToken, findCookie, makeApp, request, signInAs, testConfig, type Agent } from "../helpers/app.js"
import { redisStore } from "../sessions/setups.js"
import { allPoints, childrenOf, context, expectNoSecrets, exported, idOf, parentOf, startTelemetry, trace, type Telemetry } from "./support.js"

let telemetry: Telemetry

beforeEach(() => {
  telemetry = startTelemetry()
})
afterEach(() => telemetry.close())

describe("a credentials sign-in", () => {
  it("is one gatehouse.callback span with the provider and a success, and a counted attempt", async () => {
    const agent = request.agent(makeApp(testConfig({ telemetry: telemetry.option })))
    const response = await signInAs(agent, "alice")
    expect(response.status).toBe(302)

    const span = telemetry.one("gatehouse.callback")
    expect(span.kind).toBe(SpanKind.INTERNAL)
    expect(span.attributes).toMatchObject({
      "gatehouse.action": "callback",
      "gatehouse.provider.id": "credentials",
      "gatehouse.provider.type": "credentials",
      "gatehouse.outcome": "success",
      "http.response.status_code": 302,
    })
    expect(span.attributes["error.type"]).toBeUndefined()
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR)
    // The CSRF token request before it is its own action span.
    expect(telemetry.one("gatehouse.csrf").attributes).toMatchObject({ "gatehouse.action": "csrf", "gatehouse.outcome": "success" })
    expect(await telemetry.count("gatehouse.signin.attempts", { "gatehouse.provider.id": "credentials", "gatehouse.outcome": "success" })).toBe(1)
  })

  it("refused: outcome failure, error.type CredentialsSignin, an error status, counted as a failed attempt", async () => {
    const agent = request.agent(makeApp(testConfig({ telemetry: telemetry.option })))
    const response = await signInAs(agent, "alice", { password: "not-her-password" })
    expect(response.status).toBe(302)
    expect(String(response.headers.location)).toContain("error=CredentialsSignin")

    const span = telemetry.one("gatehouse.callback")
    expect(span.attributes).toMatchObject({ "gatehouse.outcome": "failure", "error.type": "CredentialsSignin", "gatehouse.provider.id": "credentials" })
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "CredentialsSignin" })
    expect(await telemetry.count("gatehouse.signin.attempts", { "gatehouse.outcome": "failure", "error.type": "CredentialsSignin" })).toBe(1)
    expect(await telemetry.count("gatehouse.signin.attempts", { "gatehouse.outcome": "success" })).toBe(0)
  })

  it("leaves no password, session cookie, CSRF token or email address in any span or metric", async () => {
    const agent = request.agent(makeApp(testConfig({ telemetry: telemetry.option })))
    const token = await csrfToken(agent)
    const signedIn = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: USERS.alice!.password })
    const session = findCookie(signedIn, "authjs.session-token")?.value
    await agent.get("/api/me").expect(200)
    await signInAs(agent, "bob", { password: "a-wrong-password-for-bob" })
    await agent.post("/auth/signout").type("form").send({ csrfToken: token })

    expect(telemetry.spans().length).toBeGreaterThanOrEqual(4)
    const text = exported(telemetry.spans(), await allPoints(telemetry))
    expectNoSecrets(text, {
      password: USERS.alice!.password,
      "wrong password": "a-wrong-password-for-bob",
      "session cookie": session,
      "CSRF token": token,
      "email address": USERS.alice!.email ?? undefined,
      "other email address": USERS.bob!.email ?? undefined,
    })
  })

  it("signing out is a gatehouse.signout span and a counted sign-out", async () => {
    const agent = request.agent(makeApp(testConfig({ telemetry: telemetry.option })))
    await signInAs(agent, "alice")
    const token = await csrfToken(agent)
    await agent.post("/auth/signout").type("form").send({ csrfToken: token }).expect(302)
    expect(telemetry.one("gatehouse.signout").attributes).toMatchObject({ "gatehouse.action": "signout", "http.request.method": "POST", "gatehouse.outcome": "success" })
    expect(await telemetry.count("gatehouse.signout.requests", { "gatehouse.outcome": "success" })).toBe(1)
  })
})

describe("requireAuth and authSession on a cookie session", () => {
  it("make no span and count each session read by strategy and outcome", async () => {
    const agent = request.agent(makeApp(testConfig({ telemetry: telemetry.option })))
    await agent.get("/api/me").expect(401)
    await signInAs(agent, "alice")
    telemetry.reset()
    await agent.get("/api/me").expect(200)
    await request(makeApp(testConfig({ telemetry: telemetry.option }))).get("/api/me").set("Cookie", "authjs.session-token=tampered").expect(401)

    expect(telemetry.spans()).toEqual([])
    // /api/me runs authSession then requireAuth: one read per request (the second reuses it).
    expect(await telemetry.count("gatehouse.session.reads", { "gatehouse.session.strategy": "cookie", "gatehouse.outcome": "active" })).toBe(1)
    expect(await telemetry.count("gatehouse.session.reads", { "gatehouse.session.strategy": "cookie", "gatehouse.outcome": "none" })).toBe(1)
    expect(await telemetry.count("gatehouse.session.reads", { "gatehouse.session.strategy": "cookie", "gatehouse.outcome": "invalid" })).toBe(1)
  })
})

describe("revocations", () => {
  it("revokeUserSessions counts one user-scope revocation; that user's cookie then reads as invalid", async () => {
    const config = testConfig({ telemetry: telemetry.option })
    const agent = request.agent(makeApp(config))
    await signInAs(agent, "alice")
    await revokeUserSessions(USERS.alice!.id as string, config)
    await agent.get("/api/me").expect(401)
    expect(await telemetry.count("gatehouse.session.revocations", { "gatehouse.revocation.scope": "user" })).toBe(1)
    expect(await telemetry.count("gatehouse.session.reads", { "gatehouse.outcome": "invalid" })).toBe(1)
  })
})

describe("a rate-limited request", () => {
  it("is a failed gatehouse.callback span with error.type RateLimited and status 429, and a counted refusal", async () => {
    const config = testConfig({ telemetry: telemetry.option, rateLimit: { enabled: true, credentials: { ip: { limit: 2, window: 60 }, identifier: false } } })
    const agent = request.agent(makeApp(config))
    for (let attempt = 0; attempt < 2; attempt++) await signInAs(agent, "alice", { password: `wrong-${attempt}` })
    const limited = await agent
      .post("/auth/callback/credentials")
      .set("Accept", "application/json")
      .type("form")
      .send({ csrfToken: await csrfToken(agent), username: "alice", password: USERS.alice!.password })
    expect(limited.status).toBe(429)

    const spans = telemetry.named("gatehouse.callback")
    expect(spans).toHaveLength(3)
    const last = spans[2]!
    expect(last.attributes).toMatchObject({ "gatehouse.outcome": "failure", "error.type": "RateLimited", "http.response.status_code": 429, "gatehouse.provider.id": "credentials" })
    expect(last.status.code).toBe(SpanStatusCode.ERROR)
    expect(await telemetry.count("gatehouse.rate_limit.refusals", { "gatehouse.rate_limit.method": "credentials" })).toBe(1)
    expect(await telemetry.count("gatehouse.signin.attempts", { "error.type": "RateLimited" })).toBe(1)
    expectNoSecrets(exported(telemetry.spans(), await allPoints(telemetry)), { password: USERS.alice!.password, "email address": USERS.alice!.email ?? undefined })
  })
})

describe("a shared store (RedisStore on the real Redis)", () => {
  it("its calls are client spans under the action that made them, without their keys", async () => {
    const shared = await redisStore()
    try {
      const config = testConfig({ telemetry: telemetry.option, store: shared.store, rateLimit: { enabled: true } })
      const agent = request.agent(makeApp(config))
      expect((await signInAs(agent, "alice")).status).toBe(302)
      const callback = telemetry.one("gatehouse.callback")
      const below = childrenOf(telemetry.spans(), callback)
      const hits = below.filter((span) => span.name === "gatehouse.store.hit")
      // The per-address and the per-identifier counters.
      expect(hits.length).toBe(2)
      for (const hit of hits) {
        expect(hit.kind).toBe(SpanKind.CLIENT)
        expect(hit.attributes).toEqual({ "gatehouse.store.operation": "hit" })
      }
      expect(below.map((span) => span.name)).toContain("gatehouse.store.putSession")
      expectNoSecrets(exported(telemetry.spans(), await allPoints(telemetry)), { "user id": USERS.alice!.id, "email address": USERS.alice!.email ?? undefined })
    } finally {
      await shared.close()
    }
  })
})

describe("the app's trace", () => {
  it("a Gatehouse span is the child of the span active when the request reaches it, in the same trace", async () => {
    const config = testConfig({ telemetry: telemetry.option })
    const outer = telemetry.tracerProvider.getTracer("app")
    const app = express()
    // What @opentelemetry/instrumentation-http does for every request: a server span, active while the app runs.
    app.use((req, res, next) => {
      const span = outer.startSpan(`GET ${req.path}`, { kind: SpanKind.SERVER })
      res.on("finish", () => span.end())
      context.with(trace.setSpan(context.active(), span), next)
    })
    app.use("/auth", authRouter(config))
    app.use(authSession(config))
    app.get("/me", requireAuth(config), (req, res) => void res.json(req.auth))
    const agent: Agent = request.agent(app)
    await csrfToken(agent)

    const server = telemetry.one("GET /auth/csrf")
    const action = telemetry.one("gatehouse.csrf")
    expect(parentOf(action)).toBe(idOf(server))
    expect(action.spanContext().traceId).toBe(server.spanContext().traceId)
    expect(childrenOf(telemetry.spans(), server)).toEqual([action])
  })
})

describe("telemetry: false", () => {
  it("makes no span and records no metric", async () => {
    const agent = request.agent(makeApp(testConfig({ telemetry: false })))
    await signInAs(agent, "alice")
    await agent.get("/api/me").expect(200)
    expect(telemetry.spans()).toEqual([])
    expect(await allPoints(telemetry)).toEqual([])
  })

  it("anything else that is not a providers object is InvalidOption at start-up", () => {
    expect(() => authRouter(testConfig({ telemetry: "on" as never }))).toThrow(expect.objectContaining({ type: "InvalidOption", message: expect.stringMatching(/^telemetry must be/) }))
    expect(() => authRouter(testConfig({ telemetry: { tracerProvider: {} } as never }))).toThrow(/telemetry\.tracerProvider/)
  })
})

jest.setTimeout(20_000)
