/**
 * csrfToken(req, res, config) (issue #26): the app's own page gets the token for a form that posts
 * to Gatehouse without calling the csrf action over HTTP, and the form's sign-in succeeds with it.
 */
import express, { type NextFunction, type Request, type Response } from "express"
import { AuthError, authRouter, csrfToken } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { skipCSRFCheck } from "../../lib/core/symbols.js"
import { findCookie, testConfig } from "../helpers/app.js"
import { CSRF_COOKIE, agentFor, sessionValue } from "./support.js"

const route = (handler: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => {
  handler(req, res).catch(next)
}

function app(config: AuthConfig = testConfig()) {
  const server = express()
  server.use("/auth", authRouter(config))
  // The app's own sign-in page: one form, its token from the helper.
  server.get("/login", route(async (req, res) => {
    res.json({ token: await csrfToken(req, res, config) })
  }))
  // A page with two forms asks twice.
  server.get("/two-forms", route(async (req, res) => {
    res.json({ first: await csrfToken(req, res, config), second: await csrfToken(req, res, config) })
  }))
  server.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ thrown: error instanceof AuthError ? error.type : String(error) })
  })
  return server
}

const signInWith = (agent: ReturnType<typeof agentFor>, token: string) =>
  agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "correct-horse", callbackUrl: "/home" })

describe("csrfToken(req, res, config)", () => {
  test("gives a token and sets its cookie; the form posted with it signs in", async () => {
    const agent = agentFor(app())
    const page = await agent.get("/login").expect(200)
    expect(page.body.token).toMatch(/^[0-9a-f]{64}$/)
    expect(findCookie(page, CSRF_COOKIE)?.value).toMatch(new RegExp(`^${page.body.token}\\|`))
    const response = await signInWith(agent, page.body.token).expect(302)
    expect(sessionValue(response)).toBeDefined()
    expect((await agent.get("/auth/session")).body.user.name).toBe("Alice")
  })

  test("a form posted with another token is refused: the token is the one its cookie holds", async () => {
    const agent = agentFor(app())
    await agent.get("/login").expect(200)
    const response = await signInWith(agent, "0".repeat(64))
    expect(sessionValue(response)).toBeUndefined()
    expect(response.headers.location ?? "").toContain("error=MissingCSRF")
  })

  test("with a valid CSRF cookie already, gives that cookie's token and sets no cookie", async () => {
    const agent = agentFor(app())
    const fromAction = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
    const page = await agent.get("/login").expect(200)
    expect(page.body.token).toBe(fromAction)
    expect(findCookie(page, CSRF_COOKIE)).toBeUndefined()
  })

  test("asked twice while answering one request: the same token, one cookie", async () => {
    const agent = agentFor(app())
    const page = await agent.get("/two-forms").expect(200)
    expect(page.body.second).toBe(page.body.first)
    const lines = ([] as string[]).concat(page.headers["set-cookie"] ?? []).filter((line) => line.startsWith(`${CSRF_COOKIE}=`))
    expect(lines).toHaveLength(1)
    expect((await signInWith(agent, page.body.first).expect(302)).headers.location).toMatch(/\/home$/)
  })

  test("with CSRF protection off (skipCSRFCheck) there is no token: UnknownAction", async () => {
    const response = await agentFor(app({ ...testConfig(), skipCSRFCheck })).get("/login").expect(500)
    expect(response.body).toEqual({ thrown: "UnknownAction" })
  })
})
