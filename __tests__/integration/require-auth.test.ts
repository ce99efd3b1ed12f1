/**
 * requireAuth, authSession and getSession on the app's own routes.
 */
import { jest } from "@jest/globals"
import express from "express"
import { authRouter, authSession, getSession, requireAuth } from "../../lib/index.js"
import type { AuthConfig, AuthorizedCallbackParams } from "../../lib/types.js"
import { makeApp, testConfig } from "../helpers/app.js"
import { ORIGIN, agentFor, localPath, sessionCookies, signedIn, spyLogger } from "./support.js"

type Authorized = (params: AuthorizedCallbackParams) => boolean | Response | Promise<boolean | Response>

describe("default: signed in", () => {
  test("a signed-out HTML request is redirected to the sign-in page with the absolute URL it asked for", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/dashboard?tab=2").set("Accept", "text/html,application/xhtml+xml").expect(302)
    expect(localPath(response.headers.location)).toBe(`/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/dashboard?tab=2`)}`)
  })

  test.each([
    ["application/json", "application/json"],
    ["no Accept header", undefined],
  ])("a signed-out request with %s gets 401 SessionRequired", async (_label, accept) => {
    const call = agentFor(makeApp(testConfig())).get("/api/me")
    const response = await (accept ? call.set("Accept", accept) : call)
    expect(response.status).toBe(401)
    expect(response.headers["content-type"]).toMatch(/application\/json/)
    expect(response.body).toEqual({ error: { type: "SessionRequired", message: expect.any(String) } })
  })

  test("a signed-in request reaches the handler", async () => {
    const agent = agentFor(makeApp(testConfig()))
    await signedIn(agent)
    const page = await agent.get("/dashboard").set("Accept", "text/html").expect(200)
    expect(page.text).toBe("<h1>Dashboard of Alice</h1>")
    const api = await agent.get("/api/me").set("Accept", "application/json").expect(200)
    expect(api.body.user.email).toBe("alice@example.com")
  })
})

describe("custom authorized callbacks", () => {
  function appWith(config: AuthConfig, routeOption?: Authorized) {
    const app = express()
    app.use("/auth", authRouter(config))
    const guard = routeOption ? requireAuth(config, { authorized: routeOption }) : requireAuth(config)
    app.get("/admin", guard, (req, res) => {
      res.json({ ok: true, auth: req.auth ?? null })
    })
    return app
  }

  test("the config callback receives the request and the session, and false denies a signed-in user", async () => {
    const authorized = jest.fn<Authorized>(() => false)
    const agent = agentFor(appWith(testConfig({ callbacks: { authorized } })))
    await signedIn(agent)
    const api = await agent.get("/admin").expect(401)
    expect(api.body.error.type).toBe("SessionRequired")
    const page = await agent.get("/admin").set("Accept", "text/html").expect(302)
    expect(localPath(page.headers.location)).toMatch(/^\/auth\/signin\?callbackUrl=/)
    const params = authorized.mock.calls[0]![0]
    expect(params.auth?.user?.name).toBe("Alice")
    expect((params.request as unknown as express.Request).path).toBe("/admin")
  })

  test("the config callback can let a signed-out request through", async () => {
    const agent = agentFor(appWith(testConfig({ callbacks: { authorized: () => true } })))
    const response = await agent.get("/admin").expect(200)
    expect(response.body).toEqual({ ok: true, auth: null })
  })

  test("the per-route option takes precedence over the config callback", async () => {
    const fromConfig = jest.fn<Authorized>(() => false)
    const agent = agentFor(appWith(testConfig({ callbacks: { authorized: fromConfig } }), ({ request }) => request.headers instanceof Headers ? false : request.headers["x-role"] === "admin"))
    await signedIn(agent)
    await agent.get("/admin").set("X-Role", "admin").expect(200)
    await agent.get("/admin").set("X-Role", "guest").expect(401)
    expect(fromConfig).not.toHaveBeenCalled()
  })

  test("a web Response from the callback is sent as it is: status, headers and body", async () => {
    const authorized: Authorized = () =>
      new Response("<p>come back later</p>", { status: 418, headers: { "Content-Type": "text/html", "X-Reason": "maintenance", "Set-Cookie": "notice=1; Path=/" } })
    const agent = agentFor(appWith(testConfig(), authorized))
    const response = await agent.get("/admin").set("Accept", "text/html")
    expect(response.status).toBe(418)
    expect(response.headers["content-type"]).toBe("text/html")
    expect(response.headers["x-reason"]).toBe("maintenance")
    expect(response.headers["set-cookie"]).toEqual(["notice=1; Path=/"])
    expect(response.text).toBe("<p>come back later</p>")
  })

  test("a callback that throws denies access and is logged", async () => {
    const logger = spyLogger()
    const failure = new Error("policy service down")
    const agent = agentFor(
      appWith(testConfig({ logger }), () => {
        throw failure
      }),
    )
    await signedIn(agent)
    const response = await agent.get("/admin").expect(401)
    expect(response.body.error.type).toBe("SessionRequired")
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ cause: expect.objectContaining({ err: failure }) }))
  })
})

describe("authSession and getSession", () => {
  function appWith(config: AuthConfig) {
    const app = express()
    app.use("/auth", authRouter(config))
    app.get("/locals", authSession(config), (req, res) => {
      res.json({ auth: req.auth === undefined ? "unset" : req.auth, locals: res.locals.auth === undefined ? "unset" : res.locals.auth })
    })
    app.get("/lookup", async (req, res, next) => {
      try {
        res.json({ session: await getSession(req, config) })
      } catch (error) {
        next(error)
      }
    })
    return app
  }

  test("authSession sets req.auth and res.locals.auth to null when signed out", async () => {
    const response = await agentFor(appWith(testConfig())).get("/locals").expect(200)
    expect(response.body).toEqual({ auth: null, locals: null })
  })

  test("authSession sets req.auth and res.locals.auth to the session when signed in", async () => {
    const agent = agentFor(appWith(testConfig()))
    await signedIn(agent)
    const response = await agent.get("/locals").expect(200)
    expect(response.body.auth.user).toEqual({ name: "Alice", email: "alice@example.com", image: "https://img.example/alice.png" })
    expect(response.body.locals).toEqual(response.body.auth)
  })

  test("getSession(req, config) returns the session, or null", async () => {
    const agent = agentFor(appWith(testConfig()))
    expect((await agent.get("/lookup").expect(200)).body).toEqual({ session: null })
    await signedIn(agent, "bob")
    const response = await agent.get("/lookup").expect(200)
    expect(response.body.session.user).toEqual({ name: "Bob", email: "bob@example.com", image: null })
  })

  test("authSession, requireAuth and getSession on one request read the session once", async () => {
    const session = jest.fn<(message: unknown) => void>()
    const config = testConfig({ events: { session }, session: { updateAge: 0 } })
    const app = express()
    app.use("/auth", authRouter(config))
    app.get("/all", authSession(config), requireAuth(config), async (req, res) => {
      res.json({ same: (await getSession(req, config)) === req.auth })
    })
    const agent = agentFor(app)
    await signedIn(agent)
    session.mockClear()
    const response = await agent.get("/all").expect(200)
    expect(response.body).toEqual({ same: true })
    expect(session).toHaveBeenCalledTimes(1)
    expect(sessionCookies(response)).toHaveLength(1)
  })
})
