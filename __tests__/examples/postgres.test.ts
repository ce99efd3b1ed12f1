/**
 * The PostgreSQL example against the real server: its migration step creates the tables (under a
 * table prefix of this test's own, dropped afterwards), demo/demo signs in through the built-in
 * page and leaves a session row whose token is the cookie, sign-out deletes that row, and a magic
 * link "mailed" to the console signs in too.
 */
import { randomBytes } from "node:crypto"
import type { Server } from "node:http"
import type { Express } from "express"
import supertest from "supertest"
import { jest } from "@jest/globals"
import { sql } from "kysely"
import { dropTables, type SqlAdapterInstance } from "gatehouse/adapters/sql"

// Gatehouse logs the refused sign-ins this test makes on purpose.
jest.spyOn(console, "error").mockImplementation(() => undefined)

const prefix = `ex_pg_${randomBytes(4).toString("hex")}_`
process.env.TABLE_PREFIX = prefix
process.env.DATABASE_URL = process.env.GATEHOUSE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"
delete process.env.SMTP_URL
const example = (await import("../../examples/postgres/index.js")) as {
  app: Express
  adapter: SqlAdapterInstance
  migrateDatabase: () => Promise<string[]>
}
const { app, adapter } = example
const db = adapter.db

let server: Server
beforeAll(async () => {
  server = app.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
})
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()))
  await dropTables(db, { tablePrefix: prefix })
  await adapter.close()
})

function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!.replace(/&amp;/g, "&")
  return fields
}

/** The action of the page's form whose action ends with `suffix`. */
function formAction(html: string, suffix: string): string {
  for (const match of html.matchAll(/<form method="post" action="([^"]+)">/g)) {
    const path = new URL(match[1]!).pathname
    if (path.endsWith(suffix)) return path
  }
  throw new Error(`no form posting to …${suffix}`)
}

/** The fields of the form posting to `suffix` (each form has its own hidden inputs). */
function fieldsOf(html: string, suffix: string): Record<string, string> {
  const start = html.search(new RegExp(`<form method="post" action="[^"]*${suffix.replace(/\//g, "\\/")}">`))
  return formFields(html.slice(start, html.indexOf("</form>", start)))
}

const sessionRows = (userId?: string) => {
  let query = db.selectFrom(`${prefix}sessions`).selectAll()
  if (userId) query = query.where("user_id", "=", userId)
  return query.execute()
}

function sessionCookie(agentCookies: string[] | string | undefined): string | undefined {
  const lines = Array.isArray(agentCookies) ? agentCookies : agentCookies ? [agentCookies] : []
  const line = lines.find((entry) => entry.startsWith("authjs.session-token="))
  const value = line?.split(";")[0]!.slice("authjs.session-token=".length)
  return value || undefined
}

describe("examples/postgres", () => {
  test("the migration step creates the tables, and is idempotent", async () => {
    const applied = await example.migrateDatabase()
    expect(applied.length).toBeGreaterThan(0)
    expect(await example.migrateDatabase()).toEqual([])
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_name like ${`${prefix}%`}`.execute(db)
    expect(tables.rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([`${prefix}users`, `${prefix}accounts`, `${prefix}sessions`, `${prefix}verification_tokens`, `${prefix}authenticators`]),
    )
  })

  test("demo/demo signs in: a session row holds the cookie's token; sign-out deletes it", async () => {
    const agent = supertest.agent(server)
    const refused = await agent.get("/dashboard").set("Accept", "text/html").expect(302)
    expect(new URL(refused.headers.location).pathname).toBe("/auth/signin")

    // Identifier-first (issue #26): step two for the username has the password form.
    const page = await agent.get("/auth/signin?login_hint=demo").expect(200)
    const signedIn = await agent
      .post(formAction(page.text, "/callback/credentials"))
      .type("form")
      .send({ ...fieldsOf(page.text, "/callback/credentials"), username: "demo", password: "demo" })
      .expect(302)
    const token = sessionCookie(signedIn.headers["set-cookie"])
    expect(token).toMatch(/^[0-9a-f]{64}$/)

    const user = await db.selectFrom(`${prefix}users`).selectAll().where("email", "=", "demo@example.com").executeTakeFirstOrThrow()
    const rows = await sessionRows(String(user.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.session_token).toBe(token)

    const me = await agent.get("/api/me").expect(200)
    expect(me.body.user).toMatchObject({ name: "Demo User", email: "demo@example.com" })
    const dashboard = await agent.get("/dashboard").set("Accept", "text/html").expect(200)
    expect(dashboard.text).toContain("Demo User")

    const confirm = await agent.get("/auth/signout").expect(200)
    await agent.post(formAction(confirm.text, "/signout")).type("form").send(formFields(confirm.text)).expect(302)
    expect(await sessionRows(String(user.id))).toHaveLength(0)
    await agent.get("/api/me").expect(401)
    // The old cookie, replayed, opens nothing: the row is gone.
    await supertest(server).get("/api/me").set("Cookie", `authjs.session-token=${token}`).expect(401)
  })

  test("a wrong password and an unknown user are refused alike, with no session row", async () => {
    const before = (await sessionRows()).length
    for (const username of ["demo", "nobody"]) {
      const agent = supertest.agent(server)
      const page = await agent.get(`/auth/signin?login_hint=${username}`).expect(200)
      const refused = await agent
        .post(formAction(page.text, "/callback/credentials"))
        .type("form")
        .send({ ...fieldsOf(page.text, "/callback/credentials"), username, password: "wrong" })
        .expect(302)
      expect(refused.headers.location).toContain("error=CredentialsSignin")
    }
    expect(await sessionRows()).toHaveLength(before)
  })

  // Issue #19: opening the link shows a confirm page; its button (a POST) signs in.
  test("a magic link printed on the console signs in the same user, with a session row", async () => {
    const log = jest.spyOn(console, "log").mockImplementation(() => undefined)
    try {
      const agent = supertest.agent(server)
      const page = await agent.get("/auth/signin?login_hint=demo%40example.com").expect(200)
      const sent = await agent
        .post(formAction(page.text, "/signin/nodemailer"))
        .type("form")
        .send({ ...fieldsOf(page.text, "/signin/nodemailer"), email: "demo@example.com" })
        .expect(302)
      expect(new URL(sent.headers.location).pathname).toBe("/auth/verify-request")
      const printed = log.mock.calls.map((call) => String(call[0])).join("\n")
      const link = /\[mail\] Sign in: (\S+)/.exec(printed)?.[1]
      expect(link).toBeDefined()
      expect(printed).toContain("[mail] To: demo@example.com")

      const url = new URL(link!)
      const confirm = await agent.get(url.pathname + url.search).expect(200)
      const followed = await agent.post(formAction(confirm.text, "/callback/nodemailer")).type("form").send(formFields(confirm.text)).expect(302)
      const token = sessionCookie(followed.headers["set-cookie"])
      expect(token).toBeDefined()
      const row = await db.selectFrom(`${prefix}sessions`).selectAll().where("session_token", "=", token!).executeTakeFirstOrThrow()
      const user = await db.selectFrom(`${prefix}users`).selectAll().where("id", "=", row.user_id as string).executeTakeFirstOrThrow()
      expect(user.email).toBe("demo@example.com")
      expect(user.email_verified).not.toBeNull()
      const me = await agent.get("/api/me").expect(200)
      expect(me.body.user.email).toBe("demo@example.com")
      // The link works once.
      const other = supertest.agent(server)
      const reopened = await other.get(url.pathname + url.search).expect(200)
      const again = await other.post(formAction(reopened.text, "/callback/nodemailer")).type("form").send(formFields(reopened.text)).expect(302)
      expect(again.headers.location).toContain("error=Verification")
    } finally {
      log.mockRestore()
    }
  })
})
