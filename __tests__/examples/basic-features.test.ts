/**
 * The basic example's features beyond demo/demo (issue #26): its own pages in the theme's look
 * under a strict policy, password accounts with sign-up (the confirmation mail printed on the
 * console), a user without a name greeted by address, the account page linked from home with its
 * two-step verification section.
 */
import { jest } from "@jest/globals"
import type { Server } from "node:http"
import type { Express } from "express"
import supertest from "supertest"

process.env.DATABASE_URL = "sqlite::memory:"
const { app } = (await import("../../examples/basic/index.js")) as { app: Express }

let server: Server
beforeAll(async () => {
  server = app.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))
const agent = () => supertest.agent(server)

function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!.replace(/&amp;/g, "&")
  return fields
}

/** The lines the example printed on the console while `run` ran (its mails, without SMTP_URL). */
async function printedDuring(run: (printed: string[]) => Promise<void>): Promise<void> {
  const printed: string[] = []
  const log = jest.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")))
  try {
    await run(printed)
  } finally {
    log.mockRestore()
  }
}

/** Mails are sent after the answer: waits for the printed line matching `pattern`, returns its first group. */
async function printedValue(printed: string[], pattern: RegExp): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const match = pattern.exec(printed.join("\n"))
    if (match) return match[1]!
    await new Promise((resume) => setTimeout(resume, 50))
  }
  throw new Error(`nothing printed matches ${pattern}: ${printed.join("\n")}`)
}

/** Signs up through the built-in page and confirms the address with the printed link; returns the signed-in agent. */
async function signUp(email: string, password: string, name = ""): Promise<ReturnType<typeof agent>> {
  const visitor = agent()
  await printedDuring(async (printed) => {
    const page = await visitor.get("/auth/signup").expect(200)
    const answer = await visitor.post("/auth/signup").type("form").send({ ...formFields(page.text), email, password, name }).expect(200)
    expect(answer.text).toContain("Check your email")
    const link = new URL(await printedValue(printed, new RegExp(`\\[mail\\] To: ${email.replace(/\./g, "\\.")}\\n\\[mail\\] Subject: [^\\n]+\\n\\[mail\\] Open: (\\S+)`)))
    expect(link.pathname).toBe("/auth/verify-email")
    const confirm = await visitor.get(link.pathname + link.search).expect(200)
    const confirmed = await visitor.post("/auth/verify-email").type("form").send(formFields(confirm.text)).expect(302)
    expect(new URL(confirmed.headers.location).pathname).toBe("/")
  })
  return visitor
}

describe("examples/basic: its own pages", () => {
  test("the home page links the example's stylesheet and has nothing inline (it works under a strict policy)", async () => {
    const home = await agent().get("/").expect(200)
    expect(home.text).toContain('<link rel="stylesheet" href="/style.css">')
    expect(home.text).not.toMatch(/<script|<style| style=| on[a-z]+=/)
    // Signed out: sign in, or create an account, and what each feature needs.
    expect(home.text).toContain('href="/auth/signin"')
    expect(home.text).toContain('href="/auth/signup"')
    expect(home.text).toContain("demo</strong> / <strong>demo")
  })

  test("the stylesheet has the theme's brand colour, light and dark", async () => {
    const css = await agent().get("/style.css").expect(200)
    expect(css.headers["content-type"]).toMatch(/^text\/css/)
    expect(css.text).toContain("--brand: #0f766e")
    expect(css.text).toContain("@media (prefers-color-scheme: dark)")
  })

  test("signed in, the home page greets the user by name and links the account page", async () => {
    const demo = agent()
    const { csrfToken } = (await demo.get("/auth/csrf").expect(200)).body as { csrfToken: string }
    await demo.post("/auth/callback/credentials").type("form").send({ csrfToken, username: "demo", password: "demo" }).expect(302)
    const home = await demo.get("/").expect(200)
    expect(home.text).toContain("Hello, Demo User")
    expect(home.text).toContain('href="/auth/account"')
    expect(home.text).toContain('href="/auth/signout"')
  })
})

describe("examples/basic: password accounts", () => {
  test("sign-up mails a confirmation link on the console; it signs the user in, who has no name and is greeted by address", async () => {
    const ada = await signUp("ada@example.com", "correct horse battery staple")
    const me = await ada.get("/api/me").expect(200)
    expect(me.body.user).toMatchObject({ email: "ada@example.com", name: null })
    const home = await ada.get("/").expect(200)
    expect(home.text).toContain("<h1>Hello, ada@example.com</h1>")
    expect(home.text).not.toMatch(/undefined|null/)
    const dashboard = await ada.get("/dashboard").expect(200)
    expect(dashboard.text).toContain("Only signed-in users see this, ada@example.com.")
  })

  test("before the link is used the password is no way in; afterwards it signs in from the sign-in page's second step", async () => {
    const early = agent()
    await printedDuring(async (printed) => {
      const page = await early.get("/auth/signup").expect(200)
      await early
        .post("/auth/signup")
        .type("form")
        .send({ ...formFields(page.text), email: "grace@example.com", password: "a long enough password", name: "Grace Hopper" })
        .expect(200)
      await printedValue(printed, /\[mail\] To: grace@example\.com/)
    })
    const step = await early.get("/auth/signin?login_hint=grace%40example.com").expect(200)
    expect(step.text).toContain('action="http://127.0.0.1')
    expect(step.text).toContain("/auth/callback/password")
    const refused = await early
      .post("/auth/callback/password")
      .type("form")
      .send({ ...formFields(step.text), email: "grace@example.com", password: "a long enough password" })
      .expect(302)
    expect(refused.headers.location).toContain("error=EmailNotVerified")
    await early.get("/api/me").expect(401)

    await signUp("linus@example.com", "another long password", "Linus")
    const later = agent()
    const page = await later.get("/auth/signin?login_hint=linus%40example.com").expect(200)
    const signedIn = await later
      .post("/auth/callback/password")
      .type("form")
      .send({ ...formFields(page.text), email: "linus@example.com", password: "another long password" })
      .expect(302)
    expect(signedIn.headers.location).not.toContain("error")
    expect((await later.get("/").expect(200)).text).toContain("Hello, Linus")
  })
})

describe("examples/basic: the account page", () => {
  test("the account page linked from home offers two-step verification, with its set-up page", async () => {
    const ada = await signUp("ada.account@example.com", "correct horse battery staple")
    const account = await ada.get("/auth/account").set("Accept", "text/html").expect(200)
    expect(account.text).toContain("Gatehouse example")
    expect(account.text).toContain("/auth/two-factor/setup")
    const setup = await ada.get("/auth/two-factor/setup").set("Accept", "text/html").expect(200)
    // The key an authenticator app takes (also in the QR code), and the field for its first code.
    expect(setup.text).toMatch(/<code id="two-factor-secret">[A-Z2-7 ]+<\/code>/)
    expect(setup.text).toContain('name="code"')
  })
})
