/**
 * The `pages` option: built-in pages redirect to the app's own, with the same query, and error
 * outcomes go there too; an entry that points back at the built-in page does not loop.
 */
import { csrfToken, makeApp, signInAs, testConfig } from "../helpers/app.js"
import { ORIGIN, agentFor, localPath } from "./support.js"

const PAGES = { signIn: "/login", signOut: "/logout", error: "/oops", verifyRequest: "/check-email" }

describe("built-in pages redirect to the configured ones with the same query", () => {
  test.each([
    ["/auth/signin", "/login"],
    ["/auth/signout", "/logout"],
    ["/auth/error", "/oops"],
    ["/auth/verify-request", "/check-email"],
  ])("GET %s -> %s", async (builtIn, custom) => {
    const agent = agentFor(makeApp(testConfig({ pages: PAGES })))
    const response = await agent.get(`${builtIn}?callbackUrl=%2Fnext&error=SessionRequired`).expect(302)
    const url = new URL(response.headers.location)
    expect(url.origin).toBe(ORIGIN)
    expect(url.pathname).toBe(custom)
    expect([...url.searchParams]).toEqual([
      ["callbackUrl", "/next"],
      ["error", "SessionRequired"],
    ])
  })

  test("an absolute URL of the app's own page is used as is", async () => {
    const agent = agentFor(makeApp(testConfig({ pages: { signIn: "https://accounts.example/login" } })))
    const response = await agent.get("/auth/signin?callbackUrl=%2Fx").expect(302)
    expect(response.headers.location).toBe("https://accounts.example/login?callbackUrl=%2Fx")
  })
})

describe("error outcomes go to the configured pages", () => {
  test("CredentialsSignin goes to pages.signIn", async () => {
    const agent = agentFor(makeApp(testConfig({ pages: PAGES })))
    const response = await signInAs(agent, "alice", { password: "wrong" })
    expect(response.status).toBe(302)
    const url = new URL(localPath(response.headers.location), ORIGIN)
    expect(url.pathname).toBe("/login")
    expect(url.searchParams.get("error")).toBe("CredentialsSignin")
    expect(url.searchParams.get("code")).toBe("credentials")
  })

  test("AccessDenied goes to pages.error", async () => {
    const agent = agentFor(makeApp(testConfig({ pages: PAGES, callbacks: { signIn: () => false } })))
    const response = await signInAs(agent, "alice")
    expect(localPath(response.headers.location)).toBe("/oops?error=AccessDenied")
  })

  test("MissingCSRF goes to pages.signIn", async () => {
    const agent = agentFor(makeApp(testConfig({ pages: PAGES })))
    await csrfToken(agent)
    const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: "forged", username: "alice", password: "correct-horse" })
    expect(response.status).toBe(302)
    const url = new URL(localPath(response.headers.location), ORIGIN)
    expect(url.pathname).toBe("/login")
    expect(url.searchParams.get("error")).toBe("MissingCSRF")
  })

  test("requireAuth sends signed-out page requests to pages.signIn", async () => {
    const agent = agentFor(makeApp(testConfig({ pages: PAGES })))
    const response = await agent.get("/dashboard").set("Accept", "text/html").expect(302)
    expect(localPath(response.headers.location)).toBe(`/login?callbackUrl=${encodeURIComponent(`${ORIGIN}/dashboard`)}`)
  })
})

describe("a pages entry equal to the built-in path does not loop", () => {
  test("pages.signIn = /auth/signin renders the built-in page", async () => {
    const agent = agentFor(makeApp(testConfig({ pages: { signIn: "/auth/signin" } })))
    const response = await agent.get("/auth/signin?error=CredentialsSignin").expect(200)
    expect(response.headers["content-type"]).toMatch(/text\/html/)
    expect(response.text).toContain("Those details did not match")
  })

  test("pages.error = /auth/error renders the built-in page with its status", async () => {
    const agent = agentFor(makeApp(testConfig({ pages: { error: "/auth/error" } })))
    const response = await agent.get("/auth/error?error=AccessDenied").expect(403)
    expect(response.text).toContain("Access denied")
  })

  test(`pages.signOut = ${ORIGIN}/auth/signout (absolute) renders the built-in page`, async () => {
    const agent = agentFor(makeApp(testConfig({ pages: { signOut: `${ORIGIN}/auth/signout` } })))
    const response = await agent.get("/auth/signout").expect(200)
    expect(response.text).toContain("Are you sure you want to sign out?")
  })
})
