/**
 * Where the router lives: at /auth, at a deeper mount path (with and without basePath), at the
 * root with basePath, and as a plain node:http handler without Express.
 */
import { createServer } from "node:http"
import express from "express"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { csrfToken, findCookie, isCleared, makeApp, request, testConfig, type Agent } from "../helpers/app.js"
import { HOST, ORIGIN, SESSION_COOKIE, agentFor, localPath, sessionValue, signedIn, spyLogger } from "./support.js"

/** The app of the helpers, or one with the router mounted at the root (basePath decides). */
function rootApp(config: AuthConfig) {
  const app = express()
  app.use(authRouter(config))
  app.use(authSession(config))
  app.get("/dashboard", requireAuth(config), (req, res) => {
    res.type("html").send(`<h1>Dashboard of ${req.auth?.user?.name}</h1>`)
  })
  app.get("/not-auth", (_req, res) => {
    res.send("app route")
  })
  return app
}

interface Scenario {
  name: string
  base: string
  app: () => express.Express
  /** requireAuth links to base only when it can know it (basePath set, or the default /auth). */
  requireAuthLinksToBase: boolean
}

const SCENARIOS: Scenario[] = [
  { name: 'mounted at "/auth"', base: "/auth", app: () => makeApp(testConfig()), requireAuthLinksToBase: true },
  {
    name: 'mounted at "/api/v1/auth" with basePath "/api/v1/auth"',
    base: "/api/v1/auth",
    app: () => makeApp(testConfig({ basePath: "/api/v1/auth" }), { mount: "/api/v1/auth" }),
    requireAuthLinksToBase: true,
  },
  {
    name: 'mounted at "/api/v1/auth" without basePath',
    base: "/api/v1/auth",
    app: () => makeApp(testConfig(), { mount: "/api/v1/auth" }),
    requireAuthLinksToBase: false,
  },
  { name: 'mounted at the root with basePath "/api/v1/auth"', base: "/api/v1/auth", app: () => rootApp(testConfig({ basePath: "/api/v1/auth" })), requireAuthLinksToBase: true },
]

describe.each(SCENARIOS)("router $name", ({ base, app, requireAuthLinksToBase }) => {
  test("csrf answers under the base path", async () => {
    expect(await csrfToken(agentFor(app()), base)).toMatch(/^[0-9a-f]{64}$/)
  })

  test("providers and the sign-in page link to the base path", async () => {
    const agent = agentFor(app())
    const providers = await agent.get(`${base}/providers`).expect(200)
    expect(providers.body[0]).toMatchObject({ signinUrl: `${ORIGIN}${base}/signin/credentials`, callbackUrl: `${ORIGIN}${base}/callback/credentials` })
    const page = await agent.get(`${base}/signin`).expect(200)
    expect(page.text).toContain(`action="${ORIGIN}${base}/callback/credentials"`)
  })

  test("sign-in, session and sign-out work", async () => {
    const agent = agentFor(app())
    const signIn = await signedIn(agent, "alice", { base, callbackUrl: "/dashboard" })
    expect(signIn.headers.location).toBe(`${ORIGIN}/dashboard`)
    expect((await agent.get(`${base}/session`).expect(200)).body.user.name).toBe("Alice")
    const signOut = await agent.post(`${base}/signout`).type("form").send({ csrfToken: await csrfToken(agent, base) }).expect(302)
    expect(isCleared(findCookie(signOut, SESSION_COOKIE))).toBe(true)
    expect((await agent.get(`${base}/session`).expect(200)).text).toBe("null")
  })

  test("a failed sign-in goes back to the sign-in page under the base path", async () => {
    const agent = agentFor(app())
    const token = await csrfToken(agent, base)
    const response = await agent.post(`${base}/callback/credentials`).type("form").send({ csrfToken: token, username: "alice", password: "wrong" }).expect(302)
    expect(new URL(response.headers.location).pathname).toBe(`${base}/signin`)
  })

  test("the session cookie is valid for the whole site (Path=/)", async () => {
    const signIn = await signedIn(agentFor(app()), "alice", { base })
    expect(findCookie(signIn, SESSION_COOKIE)?.path).toBe("/")
    expect(sessionValue(signIn)).toBeDefined()
  })

  if (requireAuthLinksToBase) {
    test("requireAuth redirects signed-out pages to the sign-in page under the base path", async () => {
      const response = await agentFor(app()).get("/dashboard").set("Accept", "text/html").expect(302)
      expect(localPath(response.headers.location)).toBe(`${base}/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/dashboard`)}`)
    })
  }
})

describe("router mounted at the root", () => {
  test("requests outside basePath reach the app", async () => {
    const response = await agentFor(rootApp(testConfig({ basePath: "/api/v1/auth" }))).get("/not-auth").expect(200)
    expect(response.text).toBe("app route")
  })

  test("an unknown action under basePath answers 404 UnknownAction", async () => {
    const response = await agentFor(rootApp(testConfig({ basePath: "/api/v1/auth" }))).get("/api/v1/auth/nope").expect(404)
    expect(response.body.error.type).toBe("UnknownAction")
  })
})

describe("mount path and basePath disagree", () => {
  test("the basepath-mount-mismatch warning is logged once and links use the mount path", async () => {
    const logger = spyLogger()
    const agent = agentFor(makeApp(testConfig({ logger }), { mount: "/api/v1/auth" }))
    const providers = await agent.get("/api/v1/auth/providers").expect(200)
    await agent.get("/api/v1/auth/providers").expect(200)
    expect(providers.body[0].signinUrl).toBe(`${ORIGIN}/api/v1/auth/signin/credentials`)
    expect(logger.warn.mock.calls.filter(([code]) => code === "basepath-mount-mismatch")).toHaveLength(1)
  })
})

describe("plain node:http server, no Express", () => {
  function server(config: AuthConfig = testConfig()) {
    const router = authRouter(config)
    return createServer((req, res) =>
      router(req, res, () => {
        res.statusCode = 404
        res.end("not found")
      }),
    )
  }

  test("GET /auth/csrf returns a token and sets the cookie", async () => {
    const response = await request(server()).get("/auth/csrf").set("Host", HOST).expect(200)
    expect(response.body.csrfToken).toMatch(/^[0-9a-f]{64}$/)
    expect(findCookie(response, "authjs.csrf-token")?.value).toMatch(new RegExp(`^${response.body.csrfToken}\\|[0-9a-f]{64}$`))
  })

  test("GET /auth/providers lists the providers with absolute URLs", async () => {
    const response = await request(server()).get("/auth/providers").set("Host", HOST).expect(200)
    expect(response.body).toEqual([
      { id: "credentials", name: "Credentials", type: "credentials", signinUrl: `${ORIGIN}/auth/signin/credentials`, callbackUrl: `${ORIGIN}/auth/callback/credentials` },
    ])
  })

  test("paths outside the base path fall through to the next handler", async () => {
    const response = await request(server()).get("/elsewhere").set("Host", HOST).expect(404)
    expect(response.text).toBe("not found")
  })

  test("credentials sign-in works without any body parser", async () => {
    const agent = request.agent(server()).set("Host", HOST) as Agent
    const signIn = await signedIn(agent, "bob")
    expect(signIn.headers.location).toBe(`${ORIGIN}/`)
    expect((await agent.get("/auth/session").expect(200)).body.user.name).toBe("Bob")
  })
})
