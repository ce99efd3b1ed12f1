/**
 * The basic example, used the way the README tells a visitor to: open the home page, try the
 * dashboard, sign in as demo/demo through the built-in page's form, sign out; and sign in with a
 * magic link printed on the console (no SMTP_URL).
 */
import { jest } from "@jest/globals"
import type { Server } from "node:http"
import type { Express } from "express"
import supertest from "supertest"

// The example's database: in memory for the test run, instead of its SQLite file.
process.env.DATABASE_URL = "sqlite::memory:"
const { app } = (await import("../../examples/basic/index.js")) as { app: Express }

// One listening server, so the origin (and port) stays the same across a visitor's requests.
let server: Server
beforeAll(async () => {
  server = app.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))
const request = Object.assign(() => supertest(server), { agent: () => supertest.agent(server) })

function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!.replace(/&amp;/g, "&")
  return fields
}

/** The path of the page's form posting to `to` (the sign-in page has several forms). */
function formAction(html: string, to = "/auth/callback/credentials"): string {
  for (const match of html.matchAll(/<form method="post" action="([^"]+)">/g)) {
    if (new URL(match[1]!).pathname === to) return to
  }
  throw new Error(`no form posting to ${to} on the page`)
}

describe("examples/basic", () => {
  test("the home page says who is signed in", async () => {
    const response = await request().get("/").expect(200)
    expect(response.text).toContain("You are not signed in")
  })

  test("the dashboard sends a signed-out browser to the sign-in page and back after signing in as demo", async () => {
    const agent = request.agent()
    const refused = await agent.get("/dashboard").set("Accept", "text/html").expect(302)
    const signinUrl = new URL(refused.headers.location)
    expect(signinUrl.pathname).toBe("/auth/signin")
    expect(new URL(signinUrl.searchParams.get("callbackUrl")!).pathname).toBe("/dashboard")

    // Identifier-first (issue #26): step one sends the username; step two has the password form.
    signinUrl.searchParams.set("login_hint", "demo")
    const page = await agent.get(signinUrl.pathname + signinUrl.search).expect(200)
    expect(page.text).toContain('name="username"')
    const fields = formFields(page.text)
    const signedIn = await agent
      .post(formAction(page.text))
      .type("form")
      .send({ ...fields, username: "demo", password: "demo" })
      .expect(302)
    expect(new URL(signedIn.headers.location).pathname).toBe("/dashboard")

    const dashboard = await agent.get("/dashboard").set("Accept", "text/html").expect(200)
    expect(dashboard.text).toContain("Demo User")
    const me = await agent.get("/api/me").expect(200)
    expect(me.body.user).toEqual({ name: "Demo User", email: "demo@example.com", image: null })
  })

  test("a wrong password keeps the visitor out", async () => {
    const agent = request.agent()
    const page = await agent.get("/auth/signin?login_hint=demo").expect(200)
    const refused = await agent
      .post(formAction(page.text))
      .type("form")
      .send({ ...formFields(page.text), username: "demo", password: "nope" })
      .expect(302)
    expect(refused.headers.location).toContain("error=CredentialsSignin")
    await agent.get("/api/me").expect(401)
  })

  // Issue #19: the mail now carries a one-time code too; here it is typed on the verify-request page,
  // and the link of the same mail is then refused (the code spent it).
  test("without SMTP_URL, the magic link and its code are printed on the console; the code signs the visitor in, once", async () => {
    const printed: string[] = []
    const log = jest.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")))
    try {
      const agent = request.agent()
      const page = await agent.get("/auth/signin?login_hint=visitor%40example.com").expect(200)
      expect(page.text).toContain('name="email" value="visitor@example.com"')
      const asked = await agent
        .post(formAction(page.text, "/auth/signin/nodemailer"))
        .type("form")
        .send({ ...formFields(page.text), email: "visitor@example.com" })
        .expect(302)
      expect(new URL(asked.headers.location).pathname).toBe("/auth/verify-request")
      const line = printed.find((text) => text.includes("[mail] Sign in:"))
      expect(line).toContain("[mail] To: visitor@example.com")
      const link = new URL(/\[mail\] Sign in: (\S+)/.exec(line!)![1]!)
      expect(link.pathname).toBe("/auth/callback/nodemailer")

      const code = /\[mail\] Code: (\d{6})/.exec(printed.join("\n"))![1]!
      const verify = await agent.get(new URL(asked.headers.location).pathname).expect(200)
      await agent.post(formAction(verify.text, "/auth/callback/nodemailer")).type("form").send({ ...formFields(verify.text), code }).expect(302)
      const me = await agent.get("/api/me").expect(200)
      expect(me.body.user).toMatchObject({ email: "visitor@example.com" })
      // Used once: the link of the same mail, opened and confirmed elsewhere, is refused.
      const other = request.agent()
      const confirm = await other.get(link.pathname + link.search).expect(200)
      const again = await other.post(formAction(confirm.text, "/auth/callback/nodemailer")).type("form").send(formFields(confirm.text)).expect(302)
      expect(again.headers.location).toContain("error=Verification")
    } finally {
      log.mockRestore()
    }
  })

  test("signing out through the confirmation page ends the session", async () => {
    const agent = request.agent()
    const page = await agent.get("/auth/signin?login_hint=demo")
    await agent.post(formAction(page.text)).type("form").send({ ...formFields(page.text), username: "demo", password: "demo" }).expect(302)
    await agent.get("/api/me").expect(200)
    const confirm = await agent.get("/auth/signout").expect(200)
    await agent.post(formAction(confirm.text, "/auth/signout")).type("form").send(formFields(confirm.text)).expect(302)
    await agent.get("/api/me").expect(401)
  })
})
