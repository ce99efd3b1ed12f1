/**
 * FAULT-01 in miniature (database sessions, the adapter failing while the session is read):
 * requireAuth never lets the request through and answers 503 AdapterError itself (JSON with
 * Retry-After, or the error page with status 503, or a redirect to the app's own error page);
 * authSession and getSession log the AdapterError and treat the request as signed out. A failed
 * expiry extension (updateSession) does not fail the read. The failing adapter is the memory
 * adapter with a switch; its error message carries SQL and a connection string that must never
 * reach the client.
 */
import { jest } from "@jest/globals"
import express, { type Express } from "express"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import { adapterMethods, type AdapterMethod } from "../../lib/core/adapter.js"
import { CAPABILITIES } from "../../lib/capabilities.js"
import { AdapterError } from "../../lib/errors.js"
import { authRouter, authSession, getSession, requireAuth } from "../../lib/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuthConfig, Session } from "../../lib/types.js"
import { testConfig } from "../helpers/app.js"
import { ORIGIN, SESSION_COOKIE, agentFor, sessionValue, signedIn, spyLogger } from "./support.js"

/** Every adapter method Gatehouse calls, the core's and the capabilities'. */
const ADAPTER_METHODS = adapterMethods(CAPABILITIES)

/** What a driver error could say; none of it may reach a client. */
const DRIVER_MESSAGE = 'connect ECONNREFUSED 127.0.0.1:5432 (postgres://gatehouse:s3cret@db.internal/app) while running SELECT "user_id" FROM "sessions"'
const LEAKS = [/ECONNREFUSED/, /s3cret/, /postgres:\/\//, /SELECT/i, /sessions"/, /\bat .+:\d+:\d+/, /node_modules/, /TypeError/, /Error:/]

interface Switchable {
  adapter: Adapter
  memory: MemoryAdapterInstance
  /** Methods that throw (all of them when `down` is true). */
  failing: Set<AdapterMethod>
  setDown(down: boolean): void
}

/** The memory adapter, whose methods throw the driver-like error while switched off. */
function switchableAdapter(): Switchable {
  const memory = MemoryAdapter()
  const failing = new Set<AdapterMethod>()
  const adapter: Record<string, unknown> = {}
  for (const method of ADAPTER_METHODS) {
    const fn = memory[method] as (...args: unknown[]) => Promise<unknown>
    adapter[method] = async (...args: unknown[]) => {
      if (failing.has(method)) throw new Error(DRIVER_MESSAGE)
      return fn.apply(memory, args)
    }
  }
  return {
    adapter: adapter as Adapter,
    memory,
    failing,
    setDown(down) {
      failing.clear()
      if (down) for (const method of ADAPTER_METHODS) failing.add(method)
    },
  }
}

interface Harness {
  app: Express
  db: Switchable
  logger: ReturnType<typeof spyLogger>
  /** How often each protected handler ran. */
  reached: { dashboard: number; api: number; public: number }
  config: AuthConfig
}

function harness(overrides: Partial<AuthConfig> = {}): Harness {
  const db = switchableAdapter()
  const logger = spyLogger()
  const config = testConfig({ adapter: db.adapter, session: { strategy: "database" }, logger, ...overrides })
  const reached = { dashboard: 0, api: 0, public: 0 }
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/", (req, res) => {
    reached.public++
    res.json({ auth: req.auth ?? null })
  })
  app.get("/dashboard", requireAuth(config), (req, res) => {
    reached.dashboard++
    res.type("html").send(`<h1>Dashboard of ${req.auth?.user?.name}</h1>`)
  })
  app.get("/api/me", requireAuth(config), (req, res) => {
    reached.api++
    res.json(req.auth)
  })
  return { app, db, logger, reached, config }
}

function adapterErrors(logger: ReturnType<typeof spyLogger>): AdapterError[] {
  return logger.error.mock.calls.map(([error]) => error).filter((error): error is AdapterError => error instanceof AdapterError)
}

function expectNoLeak(response: { text: string; headers: Record<string, unknown> }): void {
  const everything = `${response.text}\n${JSON.stringify(response.headers)}`
  for (const leak of LEAKS) expect(everything).not.toMatch(leak)
}

async function signedInAgent(h: Harness) {
  const agent = agentFor(h.app)
  const response = await signedIn(agent)
  expect(sessionValue(response)).toBeDefined()
  expect(h.db.memory.store.sessions.size).toBe(1)
  return agent
}

describe("requireAuth while the adapter fails", () => {
  test("a JSON client gets 503 AdapterError with Retry-After; the handler never runs; the AdapterError is logged once", async () => {
    const h = harness()
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    const response = await agent.get("/api/me").set("Accept", "application/json")
    expect(response.status).toBe(503)
    expect(response.headers["content-type"]).toMatch(/^application\/json/)
    expect(response.headers["retry-after"]).toBe("5")
    expect(response.body).toEqual({ error: { type: "AdapterError", message: "Sign-in is unavailable for a moment. Please try again shortly." } })
    expectNoLeak(response)
    expect(h.reached.api).toBe(0)
    // authSession and requireAuth share the one failed read: one log entry with the cause.
    const logged = adapterErrors(h.logger)
    expect(logged).toHaveLength(1)
    expect((logged[0]!.cause?.err as Error).message).toBe(DRIVER_MESSAGE)
  })

  test("a request without Accept is answered the same way (JSON 503)", async () => {
    const h = harness()
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    const response = await agent.get("/api/me")
    expect([response.status, response.body?.error?.type, response.headers["retry-after"]]).toEqual([503, "AdapterError", "5"])
    expect(h.reached.api).toBe(0)
  })

  test("a page request gets the built-in error page with status 503 and Retry-After, not the page", async () => {
    const h = harness()
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    const response = await agent.get("/dashboard").set("Accept", "text/html,application/xhtml+xml")
    expect(response.status).toBe(503)
    expect(response.headers["content-type"]).toMatch(/^text\/html/)
    expect(response.headers["retry-after"]).toBe("5")
    expect(response.headers["content-security-policy"]).toBeDefined()
    expect(response.text).toContain("Temporarily unavailable")
    expect(response.text).toContain("Sign-in is unavailable for a moment")
    expect(response.text).not.toContain("Dashboard of")
    expectNoLeak(response)
    expect(h.reached.dashboard).toBe(0)
  })

  test("the 503 page speaks the browser's language (Accept-Language: de)", async () => {
    const h = harness()
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    const response = await agent.get("/dashboard").set("Accept", "text/html").set("Accept-Language", "de-CH,de;q=0.9,en;q=0.5")
    expect(response.status).toBe(503)
    expect(response.headers["content-language"]).toBe("de")
    expect(response.text).toContain("Vorübergehend nicht verfügbar")
    expect(response.text).toContain('lang="de"')
    expect(h.reached.dashboard).toBe(0)
  })

  test("with pages.error set, a page request is redirected there with error=AdapterError", async () => {
    const h = harness({ pages: { error: "/oops" } })
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    const response = await agent.get("/dashboard").set("Accept", "text/html")
    expect(response.status).toBe(302)
    expect(response.headers.location).toBe(`${ORIGIN}/oops?error=AdapterError`)
    expect(h.reached.dashboard).toBe(0)
  })

  test("an authorized callback that lets everyone in is not asked: still 503 (never fails open)", async () => {
    const authorized = jest.fn(() => true)
    const h = harness({ callbacks: { authorized } })
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    const response = await agent.get("/api/me").set("Accept", "application/json")
    expect([response.status, response.body?.error?.type]).toEqual([503, "AdapterError"])
    expect(authorized).not.toHaveBeenCalled()
    expect(h.reached.api).toBe(0)
  })

  test("without authSession in front, requireAuth alone answers 503 too", async () => {
    const db = switchableAdapter()
    const config = testConfig({ adapter: db.adapter, session: { strategy: "database" } })
    const app = express()
    app.use("/auth", authRouter(config))
    let reached = 0
    app.get("/api/me", requireAuth(config), (_req, res) => {
      reached++
      res.json({})
    })
    const agent = agentFor(app)
    await signedIn(agent)
    db.setDown(true)
    const response = await agent.get("/api/me").set("Accept", "application/json")
    expect([response.status, response.body?.error?.type, response.headers["retry-after"]]).toEqual([503, "AdapterError", "5"])
    expect(reached).toBe(0)
  })

  test("once the adapter answers again the same requests succeed, with no restart", async () => {
    const h = harness()
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    expect((await agent.get("/api/me").set("Accept", "application/json")).status).toBe(503)
    h.db.setDown(false)
    const api = await agent.get("/api/me").set("Accept", "application/json").expect(200)
    expect(api.body.user.email).toBe("alice@example.com")
    const page = await agent.get("/dashboard").set("Accept", "text/html").expect(200)
    expect(page.text).toBe("<h1>Dashboard of Alice</h1>")
  })
})

describe("authSession and getSession while the adapter fails", () => {
  test("authSession: a public page still works, signed out for this request (req.auth null), AdapterError logged", async () => {
    const h = harness()
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    const response = await agent.get("/").set("Accept", "application/json")
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ auth: null })
    expect(h.reached.public).toBe(1)
    expect(adapterErrors(h.logger)).toHaveLength(1)
    // The session cookie is not cleared: the session is still valid once the database is back.
    expect(response.headers["set-cookie"]).toBeUndefined()
  })

  test("getSession gives null and logs the AdapterError; res.locals.auth is null", async () => {
    const db = switchableAdapter()
    const logger = spyLogger()
    const config = testConfig({ adapter: db.adapter, session: { strategy: "database" }, logger })
    const app = express()
    app.use("/auth", authRouter(config))
    app.use(authSession(config))
    app.get("/who", async (req, res) => {
      const session: Session | null = await getSession(req, config)
      res.json({ session, locals: res.locals.auth === undefined ? "unset" : res.locals.auth })
    })
    const agent = agentFor(app)
    await signedIn(agent)
    const before = await agent.get("/who").expect(200)
    expect(before.body.session.user.email).toBe("alice@example.com")
    db.setDown(true)
    // Past the one-second cache of database sessions, so the read reaches the (failing) adapter.
    const past = Date.now() + 1001
    const clock = jest.spyOn(Date, "now").mockImplementation(() => past)
    const during = await agent.get("/who").expect(200)
    clock.mockRestore()
    expect(during.body).toEqual({ session: null, locals: null })
    expect(adapterErrors(logger)).toHaveLength(1)
  })

  test("GET /auth/session answers 503 AdapterError JSON with Retry-After, no leak", async () => {
    const h = harness()
    const agent = await signedInAgent(h)
    h.db.setDown(true)
    const response = await agent.get("/auth/session")
    expect([response.status, response.body?.error?.type, response.headers["retry-after"]]).toEqual([503, "AdapterError", "5"])
    expect(response.body.user).toBeUndefined()
    expectNoLeak(response)
  })
})

describe("a failing expiry extension (FAULT-02 c, memory adapter)", () => {
  test("with updateAge 0 and updateSession failing, the session is still returned, logged, no new cookie, no 5xx", async () => {
    const h = harness({ session: { strategy: "database", updateAge: 0 } })
    const agent = await signedInAgent(h)
    const [stored] = [...h.db.memory.store.sessions.values()]
    const expires = stored!.expires.getTime()
    h.db.failing.add("updateSession")
    const response = await agent.get("/auth/session").expect(200)
    expect(response.body.user.email).toBe("alice@example.com")
    expect(new Date(response.body.expires).getTime()).toBe(expires)
    expect(sessionValue(response, SESSION_COOKIE)).toBeUndefined()
    const api = await agent.get("/api/me").set("Accept", "application/json").expect(200)
    expect(api.body.user.email).toBe("alice@example.com")
    const logged = adapterErrors(h.logger)
    expect(logged.length).toBeGreaterThanOrEqual(2)
    expect(logged.every((error) => (error.cause as { method?: string }).method === "updateSession")).toBe(true)
  })
})
