/**
 * Issue #20, the audit trail through the credentials provider: sign-in success and failure with
 * its reason, sign-out, a revoked session, a rate limit; request ids (generated, the app's own,
 * a trusted proxy header, never an untrusted one); a throwing or slow audit callback changes
 * nothing the user sees; and no record holds the password, the cookies or the CSRF token.
 */
import { describe, expect, it, jest } from "@jest/globals"
import express from "express"
import { credentials, csrfToken, makeApp, request, signInAs, testConfig, type Agent } from "../helpers/app.js"
import { spyLogger } from "../integration/support.js"
import { currentScope } from "../../lib/core/request-scope.js"
import type { AuditRecord, AuthConfig } from "../../lib/types.js"
import { auditLog, cookieValues, expectCommonFields, expectNoSecrets } from "./support.js"

const AGENT = "audit-test/1.0 (Gatehouse)"

function site(overrides: Partial<AuthConfig> = {}) {
  const log = auditLog()
  const logger = spyLogger()
  const config = testConfig({ events: { audit: log.audit }, logger, ...overrides })
  const app = makeApp(config)
  const agent = (): Agent => request.agent(app).set("User-Agent", AGENT) as unknown as Agent
  return { log, logger, config, app, agent }
}

describe("audit records of credentials sign-ins", () => {
  it("a sign-in is one `signin` success with the user, provider, client address, user agent and the request id answered as X-Request-Id", async () => {
    const { log, agent } = site()
    const response = await signInAs(agent(), "alice")
    expect(response.status).toBe(302)
    const [record, ...more] = log.of("signin")
    expect(more).toHaveLength(0)
    expect(record).toMatchObject({ type: "signin", outcome: "success", userId: "user-alice", provider: "credentials", method: "credentials", isNewUser: false, ip: "127.0.0.1", userAgent: AGENT })
    expect(record!.reason).toBeUndefined()
    expectCommonFields(record!, String(response.headers["x-request-id"]))
    expect(record!.requestId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("wrong credentials are a `signin` failure with reason CredentialsSignin and no user; the password is in no record", async () => {
    const { log, agent } = site()
    const browser = agent()
    const token = await csrfToken(browser)
    const response = await browser.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "not-her-password-93" })
    expect(response.status).toBe(302)
    expect(String(response.headers.location)).toContain("error=CredentialsSignin")
    expect(log.of("signin")).toEqual([expect.objectContaining({ outcome: "failure", reason: "CredentialsSignin", provider: "credentials", ip: "127.0.0.1" })])
    expect(log.of("signin")[0]!.userId).toBeUndefined()
    expectNoSecrets(log.records, ["not-her-password-93", token, "correct-horse"])
  })

  it("a missing CSRF token is a `signin` failure with reason MissingCSRF", async () => {
    const { log, agent } = site()
    await agent().post("/auth/callback/credentials").type("form").send({ username: "alice", password: "correct-horse" }).expect(302)
    expect(log.of("signin")).toEqual([expect.objectContaining({ outcome: "failure", reason: "MissingCSRF" })])
  })

  it("sign-out is a `signout` record of the user; revoking the other sessions is `session.revoked` with scope others; no cookie value in any record", async () => {
    const { log, agent } = site()
    const laptop = agent()
    const phone = agent()
    const signedIn = await signInAs(laptop, "alice")
    await signInAs(phone, "alice")
    const token = await csrfToken(laptop)
    await laptop.post("/auth/sessions/revoke").set("Accept", "application/json").type("form").send({ csrfToken: token, others: "1" }).expect(200)
    expect(log.of("session.revoked")).toEqual([expect.objectContaining({ outcome: "success", userId: "user-alice", scope: "others" })])
    const out = await laptop.post("/auth/signout").type("form").send({ csrfToken: await csrfToken(laptop) })
    expect(out.status).toBe(302)
    expect(log.of("signout")).toEqual([expect.objectContaining({ outcome: "success", userId: "user-alice", ip: "127.0.0.1", userAgent: AGENT })])
    expect(log.of("signout")[0]!.requestId).toBe(out.headers["x-request-id"])
    expectNoSecrets(log.records, [...cookieValues(signedIn), token, "correct-horse"])
  })

  it("over the rate limit: one `rate_limited` record per refusal (limit, address) and the sign-in's failure says RateLimited", async () => {
    const { log, agent } = site({ rateLimit: { enabled: true, credentials: { ip: { limit: 2, window: 60 }, identifier: false } } })
    const browser = agent()
    for (let i = 0; i < 2; i++) await signInAs(browser, "alice", { password: "wrong-guess-1234" })
    expect(log.of("rate_limited")).toHaveLength(0)
    const refused = await signInAs(browser, "alice")
    expect(refused.status).toBe(429)
    expect(log.of("rate_limited")).toEqual([expect.objectContaining({ outcome: "failure", reason: "RateLimited", limit: "credentials", ip: "127.0.0.1", requestId: refused.headers["x-request-id"] })])
    expect(log.of("signin").at(-1)).toMatchObject({ outcome: "failure", reason: "RateLimited", provider: "credentials" })
    await signInAs(browser, "alice")
    expect(log.of("rate_limited")).toHaveLength(2)
    expectNoSecrets(log.records, ["wrong-guess-1234", "correct-horse"])
  })
})

describe("request ids", () => {
  it("are new for each request by default; an incoming X-Request-Id is not taken unless trusted", async () => {
    const { log, app } = site()
    const one = await request(app).get("/auth/csrf").set("X-Request-Id", "forged-by-client-1")
    const two = await request(app).get("/auth/csrf")
    expect(one.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
    expect(two.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
    expect(one.headers["x-request-id"]).not.toBe(two.headers["x-request-id"])
    expect(log.records).toHaveLength(0)
  })

  it("with requestId.trustHeader, a well-formed incoming id is the request's (records and answer); a malformed one is replaced", async () => {
    const { log, agent } = site({ requestId: { trustHeader: true } })
    const browser = agent()
    const token = await csrfToken(browser)
    const response = await browser.post("/auth/callback/credentials").set("X-Request-Id", "nginx-7f3a9c01").type("form").send({ csrfToken: token, username: "alice", password: "correct-horse" })
    expect(response.headers["x-request-id"]).toBe("nginx-7f3a9c01")
    expect(log.of("signin")[0]).toMatchObject({ outcome: "success", requestId: "nginx-7f3a9c01" })
    const bad = await browser.get("/auth/csrf").set("X-Request-Id", "two words <b>")
    expect(bad.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("the app's own req.id (pino-http, express-request-id) is used as it is", async () => {
    const log = auditLog()
    const config = testConfig({ events: { audit: log.audit } })
    const app = express()
    let counter = 41
    app.use((req, _res, next) => {
      ;(req as unknown as { id: number }).id = ++counter
      next()
    })
    app.use(makeApp(config))
    const browser = request.agent(app) as unknown as Agent
    const response = await signInAs(browser, "bob")
    expect(response.headers["x-request-id"]).toBe("43")
    expect(log.of("signin")[0]).toMatchObject({ userId: "user-bob", requestId: "43" })
  })

  it("the requestId option is checked at start-up", () => {
    expect(() => makeApp(testConfig({ requestId: { trustHeader: "yes" as unknown as boolean } }))).toThrow(expect.objectContaining({ type: "InvalidOption", message: expect.stringContaining("requestId.trustHeader") }))
    expect(() => makeApp(testConfig({ requestId: { header: "x request" } }))).toThrow(expect.objectContaining({ type: "InvalidOption" }))
  })

  it("without an audit callback or a structured logger, requests are not tracked (no per-request scope) and answer no id, unless the requestId option is set", async () => {
    let seen: unknown = "not called"
    const plainLogger = { error: () => undefined, warn: () => undefined, debug: () => undefined }
    const config = testConfig({
      providers: [credentials()],
      logger: plainLogger,
      callbacks: { signIn: () => ((seen = currentScope()), true) },
    })
    const response = await signInAs(request.agent(makeApp(config)) as unknown as Agent, "alice")
    expect(response.status).toBe(302)
    expect(seen).toBeUndefined()
    expect(response.headers["x-request-id"]).toBeUndefined()

    const asked = testConfig({ providers: [credentials()], requestId: {} })
    const answered = await signInAs(request.agent(makeApp(asked)) as unknown as Agent, "alice")
    expect(answered.status).toBe(302)
    expect(answered.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe("a broken or slow audit callback", () => {
  it("one that throws: the sign-in succeeds as usual and the failure is logged as EventError", async () => {
    const { agent, logger } = site({ events: { audit: () => { throw new Error("audit sink down") } } })
    const browser = agent()
    const response = await signInAs(browser, "alice")
    expect(response.status).toBe(302)
    expect((await browser.get("/api/me").expect(200)).body.user.name).toBe("Alice")
    const logged = logger.error.mock.calls.map(([error]) => error as Error & { type?: string })
    expect(logged).toEqual(expect.arrayContaining([expect.objectContaining({ type: "EventError" })]))
  })

  it("one that rejects later: logged, the request unaffected", async () => {
    const { agent, logger } = site({ events: { audit: async () => Promise.reject(new Error("insert failed")) } })
    expect((await signInAs(agent(), "alice")).status).toBe(302)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(logger.error.mock.calls.some(([error]) => (error as { type?: string }).type === "EventError")).toBe(true)
  })

  it("one whose promise has not settled: the answer is sent without waiting for it", async () => {
    let release!: () => void
    const pending = new Promise<void>((resolve) => (release = resolve))
    const started: AuditRecord[] = []
    let settled = false
    const { agent } = site({
      events: {
        audit: async (record) => {
          started.push(record)
          await pending
          settled = true
        },
      },
    })
    const browser = agent()
    const response = await signInAs(browser, "alice")
    expect(response.status).toBe(302)
    expect((await browser.get("/api/me").expect(200)).body.user.name).toBe("Alice")
    expect(started.map((record) => record.type)).toContain("signin")
    expect(settled).toBe(false)
    release()
    await pending
  })

  it("is checked like every event: not a function fails at start-up", () => {
    expect(() => makeApp(testConfig({ events: { audit: "yes" as unknown as () => void } }))).toThrow(expect.objectContaining({ type: "InvalidOption" }))
  })

  it("nothing is built when no audit callback is configured", async () => {
    const spy = jest.fn<() => void>()
    const { agent } = site({ events: { signIn: spy } })
    expect((await signInAs(agent(), "alice")).status).toBe(302)
    expect(spy).toHaveBeenCalledTimes(1)
  })
})
