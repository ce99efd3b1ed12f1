/**
 * Server-side helpers (signIn, signOut) and form actions (signInAction, signOutAction) on the
 * app's own routes.
 */
import express, { type ErrorRequestHandler, type NextFunction, type Request, type Response } from "express"
import { AuthError, authRouter, signIn, signInAction, signOut, signOutAction, type FormActionResult } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { findCookie, isCleared, testConfig } from "../helpers/app.js"
import { ORIGIN, SESSION_COOKIE, agentFor, localPath, sessionCookies, sessionValue, signedIn } from "./support.js"

/** An async route handler whose rejection reaches the error handler (Express 5 does this by itself, Express 4 does not). */
const route = (handler: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => {
  handler(req, res).catch(next)
}

function helperApp(config: AuthConfig = testConfig()) {
  const results: FormActionResult[] = []
  const app = express()
  app.use("/auth", authRouter(config))
  app.post("/login", express.urlencoded({ extended: false }), route(async (req, res) => {
    const url = await signIn(req, res, config, "credentials", {
      username: req.body.username,
      password: req.body.password,
      redirectTo: "/x",
      redirect: req.query.redirect !== "false",
    })
    if (!res.headersSent) res.json({ url })
  }))
  app.post("/login-page", route(async (req, res) => {
    await signIn(req, res, config)
  }))
  app.post("/logout", route(async (req, res) => {
    const url = await signOut(req, res, config, { redirectTo: "/bye", redirect: req.query.redirect !== "false" })
    if (!res.headersSent) res.json({ url })
  }))
  app.post("/form/signin", route(async (req, res) => {
    const result = await signInAction(req, res, config)
    results.push(result)
    if (!res.headersSent) res.status(422).json({ result, wrote: false })
  }))
  app.post("/form/signout", route(async (req, res) => {
    const result = await signOutAction(req, res, config)
    results.push(result)
    if (!res.headersSent) res.status(422).json({ result, wrote: false })
  }))
  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    res.status(500).json({ thrown: error instanceof AuthError ? error.type : String(error), name: error?.name, headersSent: res.headersSent })
  }
  app.use(onError)
  return { app, results }
}

describe("signIn(req, res, config, provider, options)", () => {
  test("with credentials sets the session cookie and redirects to redirectTo", async () => {
    const agent = agentFor(helperApp().app)
    const response = await agent.post("/login").type("form").send({ username: "alice", password: "correct-horse" }).expect(302)
    expect(response.headers.location).toBe(`${ORIGIN}/x`)
    expect(sessionValue(response)).toBeDefined()
    expect((await agent.get("/auth/session")).body.user.name).toBe("Alice")
  })

  test("with redirect: false returns the URL and writes no redirect", async () => {
    const agent = agentFor(helperApp().app)
    const response = await agent.post("/login?redirect=false").type("form").send({ username: "alice", password: "correct-horse" }).expect(200)
    expect(response.body).toEqual({ url: `${ORIGIN}/x` })
    expect(response.headers.location).toBeUndefined()
    expect(sessionValue(response)).toBeDefined()
  })

  test("a wrong password throws CredentialsSignin and sets no session", async () => {
    const agent = agentFor(helperApp().app)
    const response = await agent.post("/login").type("form").send({ username: "alice", password: "wrong" }).expect(500)
    expect(response.body).toEqual({ thrown: "CredentialsSignin", name: "CredentialsSignin", headersSent: false })
    expect(sessionCookies(response)).toEqual([])
  })

  test("without a provider redirects to the sign-in page with the Referer as callbackUrl", async () => {
    const agent = agentFor(helperApp().app)
    const response = await agent.post("/login-page").set("Referer", `${ORIGIN}/reports?q=1`).expect(302)
    expect(localPath(response.headers.location)).toBe(`/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/reports?q=1`)}`)
  })

  test("without a provider, a Referer on another site is replaced by the site itself", async () => {
    const response = await agentFor(helperApp().app).post("/login-page").set("Referer", "https://evil.example/phish").expect(302)
    const url = new URL(response.headers.location)
    expect(url.pathname).toBe("/auth/signin")
    expect(localPath(url.searchParams.get("callbackUrl") ?? undefined)).toBe("/")
  })

  test("without a provider or Referer the callbackUrl is the site itself", async () => {
    const response = await agentFor(helperApp().app).post("/login-page").expect(302)
    const url = new URL(response.headers.location)
    expect(url.pathname).toBe("/auth/signin")
    expect(localPath(url.searchParams.get("callbackUrl") ?? undefined)).toBe("/")
  })

  test.each([
    ["Origin", "https://evil.example"],
    ["Sec-Fetch-Site", "cross-site"],
  ])("a cross-site POST (%s: %s) to the app route throws MissingCSRF", async (header, value) => {
    const agent = agentFor(helperApp().app)
    const response = await agent.post("/login").set(header, value).type("form").send({ username: "alice", password: "correct-horse" }).expect(500)
    expect(response.body.thrown).toBe("MissingCSRF")
    expect(sessionCookies(response)).toEqual([])
  })

  test("a same-site Origin is accepted", async () => {
    const agent = agentFor(helperApp().app)
    const response = await agent.post("/login").set("Origin", ORIGIN).type("form").send({ username: "alice", password: "correct-horse" }).expect(302)
    expect(sessionValue(response)).toBeDefined()
  })
})

describe("signOut(req, res, config, options)", () => {
  test("clears the session and redirects to redirectTo", async () => {
    const agent = agentFor(helperApp().app)
    await signedIn(agent)
    const response = await agent.post("/logout").expect(302)
    expect(response.headers.location).toBe(`${ORIGIN}/bye`)
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
    expect((await agent.get("/auth/session")).text).toBe("null")
  })

  test("with redirect: false clears the session and returns the URL", async () => {
    const agent = agentFor(helperApp().app)
    await signedIn(agent)
    const response = await agent.post("/logout?redirect=false").expect(200)
    expect(response.body).toEqual({ url: `${ORIGIN}/bye` })
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
  })
})

describe("signInAction / signOutAction", () => {
  const failed = (fieldErrors: Record<string, unknown>, formErrors: unknown[] = []) => ({ failed: true, fieldErrors, formErrors })

  test.each([
    ["providerId that is not a string", { providerId: 5 }, "providerId"],
    ["providerId naming no provider", { providerId: "nope" }, "providerId"],
    ["redirectTo that is not a string", { providerId: "credentials", redirectTo: ["/a"] }, "redirectTo"],
    ["options that is not an object", { providerId: "credentials", options: "x" }, "options"],
  ])("signInAction refuses a %s with fieldErrors and writes nothing", async (_label, body, field) => {
    const { app, results } = helperApp()
    const response = await agentFor(app).post("/form/signin").send(body).expect(422)
    expect(response.body.wrote).toBe(false)
    expect(results).toEqual([failed({ [field]: [expect.any(String)] })])
    expect(response.headers["set-cookie"]).toBeUndefined()
  })

  test("signInAction reports an unreadable body in formErrors", async () => {
    const { app, results } = helperApp()
    await agentFor(app).post("/form/signin").set("Content-Type", "text/plain").send("providerId=credentials").expect(422)
    expect(results).toEqual([failed({}, [expect.any(String)])])
  })

  test("signInAction with valid credentials signs in, redirects and returns {failed: undefined}", async () => {
    const { app, results } = helperApp()
    const agent = agentFor(app)
    const response = await agent
      .post("/form/signin")
      .type("form")
      .send({ providerId: "credentials", redirectTo: "/x", username: "alice", password: "correct-horse" })
      .expect(302)
    expect(response.headers.location).toBe(`${ORIGIN}/x`)
    expect(sessionValue(response)).toBeDefined()
    expect(results).toEqual([{ failed: undefined }])
  })

  test("signOutAction refuses a redirectTo that is not a string and writes nothing", async () => {
    const { app, results } = helperApp()
    const agent = agentFor(app)
    await signedIn(agent)
    const response = await agent.post("/form/signout").send({ redirectTo: 42 }).expect(422)
    expect(results).toEqual([failed({ redirectTo: [expect.any(String)] })])
    expect(sessionCookies(response)).toEqual([])
    expect((await agent.get("/auth/session")).body.user.name).toBe("Alice")
  })

  test("signOutAction signs out, redirects and returns {failed: undefined}", async () => {
    const { app, results } = helperApp()
    const agent = agentFor(app)
    await signedIn(agent)
    const response = await agent.post("/form/signout").type("form").send({ redirectTo: "/bye" }).expect(302)
    expect(response.headers.location).toBe(`${ORIGIN}/bye`)
    expect(isCleared(findCookie(response, SESSION_COOKIE))).toBe(true)
    expect(results).toEqual([{ failed: undefined }])
  })
})
