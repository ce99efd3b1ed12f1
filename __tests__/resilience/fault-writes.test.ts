/**
 * FAULT-02 (b)-(d) — nothing half-written when a write fails part-way, on the shared PostgreSQL
 * (tables under a prefix of this file's own; (a) is in __tests__/database/database-faults.test.ts).
 * A trigger raises on the chosen table and statement, so the failure is the database's own:
 * (b) INSERT into sessions while a magic link is followed; (c) UPDATE of sessions (the expiry
 * extension, updateAge 0) while the session is read; (d) UPDATE of authenticators (the signature
 * counter) during a passkey sign-in.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals"
import { sql } from "kysely"
import { AdapterError } from "../../lib/errors.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import { engine } from "../database/engines.js"
import { findCookie, makeApp, serve, signInAs, testConfig, request } from "../helpers/app.js"
import { linkIn, startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { ALICE, Browser, buildApp, expectSignedIn, names, passkeySignIn, seedPasskey, seedUser, softFor } from "../webauthn/fixtures.js"

const db = engine("postgres", "fw")
const SESSION = "authjs.session-token"
const triggers: Array<{ table: string; name: string }> = []

const run = (statement: string) => sql.raw(statement).execute(db.sql().db)

/** A trigger that raises on `event` of `table` (BEFORE, per row); dropped after each test. */
async function refuse(table: string, event: "INSERT" | "UPDATE"): Promise<void> {
  const name = `${db.prefix}refuse_${table}_${event.toLowerCase()}`
  await run(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'gatehouse-test: ${table} ${event} refused'; END $$`)
  await run(`CREATE TRIGGER ${name} BEFORE ${event} ON ${db.prefix}${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`)
  triggers.push({ table, name })
}

async function allow(): Promise<void> {
  for (const { table, name } of triggers.splice(0)) {
    await run(`DROP TRIGGER IF EXISTS ${name} ON ${db.prefix}${table}`)
    await run(`DROP FUNCTION IF EXISTS ${name}()`)
  }
}

function spyLogger() {
  return { error: jest.fn<(error: Error) => void>(), warn: jest.fn<(code: string) => void>(), debug: jest.fn<(message: string) => void>() }
}

/** The AdapterErrors logged, with the database's message for each. */
function adapterErrors(logger: ReturnType<typeof spyLogger>): Array<{ method?: string; message?: string }> {
  return logger.error.mock.calls
    .map(([error]) => error)
    .filter((error): error is AdapterError => error instanceof AdapterError)
    .map((error) => {
      const cause = error.cause as { method?: string; err?: { message?: string } } | undefined
      return { method: cause?.method, message: cause?.err?.message }
    })
}

function noLeak(text: string): void {
  expect(text).not.toMatch(/gatehouse-test|refused|plpgsql|INSERT|UPDATE|\bat .+:\d+:\d+|node_modules/)
}

beforeAll(() => db.open(), 60_000)
afterAll(async () => {
  await allow()
  await db.close()
})
beforeEach(() => db.reset())
afterEach(() => allow())

/** Opens the link (its confirm page, issue #19) and presses the button: the POST's answer. */
async function followLink(agent: ReturnType<typeof request.agent>, path: string) {
  const page = await agent.get(path).expect(200)
  const fields = Object.fromEntries([...page.text.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll("&#34;", '"').replaceAll("&amp;", "&")]))
  return agent.post(path.slice(0, path.indexOf("?"))).type("form").send(fields)
}

describe("(b) INSERT into sessions fails while a magic link is followed", () => {
  let smtp: SmtpSink
  beforeAll(async () => {
    smtp = await startSmtp()
  })
  afterAll(() => smtp.close())

  it("named AdapterError page, no session cookie or row; the used-up link then says to ask for a new one, and a new link signs in", async () => {
    const logger = spyLogger()
    const config = testConfig({ adapter: db.adapter(), logger, providers: [Nodemailer({ server: smtp.url, from: "no-reply@app.test" })] })
    const site = await serve(makeApp(config))
    try {
      const agent = request.agent(site.url)
      const csrfToken = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
      const before = smtp.messages.length
      await agent.post("/auth/signin/nodemailer").type("form").send({ csrfToken, email: "alice@example.com" }).expect(302)
      const link = linkIn((await smtp.waitFor(before + 1))[before]!)
      const path = `${link.pathname}${link.search}`

      await refuse("sessions", "INSERT")
      const failed = await followLink(agent, path)
      expect(failed.status).toBe(302)
      expect(failed.headers.location).toBe(`${site.url}/auth/error?error=AdapterError`)
      expect(findCookie(failed, SESSION)?.value).toBeFalsy()
      expect((await db.counts()).sessions).toBe(0)
      const page = await agent.get("/auth/error?error=AdapterError").set("Accept", "text/html")
      expect(page.status).toBe(503)
      noLeak(page.text)
      expect(adapterErrors(logger)).toContainEqual({ method: "createSession", message: "gatehouse-test: sessions INSERT refused" })
      expect((await agent.get("/auth/session").expect(200)).body).toBeNull()

      // The link was used up before the session write failed; it is not given back. Followed
      // again it lands on the Verification page ("ask for a new one"), and a new link signs in.
      await allow()
      const again = await followLink(agent, path)
      expect(again.headers.location).toBe(`${site.url}/auth/error?error=Verification`)
      const explained = await agent.get("/auth/error?error=Verification").set("Accept", "text/html")
      expect(explained.text).toContain("Ask for a new one")
      expect((await db.counts()).sessions).toBe(0)

      const fresh = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
      const count = smtp.messages.length
      await agent.post("/auth/signin/nodemailer").type("form").send({ csrfToken: fresh, email: "alice@example.com" }).expect(302)
      const second = linkIn((await smtp.waitFor(count + 1))[count]!)
      const ok = await followLink(agent, `${second.pathname}${second.search}`)
      expect([ok.status, ok.headers.location]).toEqual([302, `${site.url}/`])
      expect(findCookie(ok, SESSION)?.value).toBeTruthy()
      expect((await agent.get("/auth/session").expect(200)).body.user.email).toBe("alice@example.com")
      expect(await db.counts()).toMatchObject({ users: 1, sessions: 1 })
    } finally {
      site.server.closeAllConnections()
      await site.close()
    }
  })
})

describe("(c) UPDATE of sessions fails while the expiry is extended (updateAge 0)", () => {
  it("the session is still returned with its stored expiry, no new cookie, the failure logged, no 5xx; requireAuth lets alice in", async () => {
    const logger = spyLogger()
    const app = makeApp(testConfig({ adapter: db.adapter(), logger, session: { strategy: "database", updateAge: 0 } }))
    const agent = request.agent(app)
    const signedIn = await signInAs(agent, "alice")
    expect(signedIn.status).toBe(302)
    const token = findCookie(signedIn, SESSION)?.value
    expect(token).toBeTruthy()
    const stored = (await db.session(token!))!.expires

    await refuse("sessions", "UPDATE")
    const read = await agent.get("/auth/session").set("Accept", "application/json")
    expect(read.status).toBe(200)
    expect(read.body.user.email).toBe("alice@example.com")
    expect(new Date(read.body.expires).getTime()).toBe(stored.getTime())
    expect(findCookie(read, SESSION)).toBeUndefined()
    const me = await agent.get("/api/me").set("Accept", "application/json")
    expect([me.status, me.body.user?.email]).toEqual([200, "alice@example.com"])
    expect((await db.session(token!))!.expires.getTime()).toBe(stored.getTime())
    const logged = adapterErrors(logger)
    expect(logged.length).toBeGreaterThanOrEqual(2)
    for (const entry of logged) expect(entry).toEqual({ method: "updateSession", message: "gatehouse-test: sessions UPDATE refused" })

    await allow()
    const extended = await agent.get("/auth/session").set("Accept", "application/json").expect(200)
    expect(findCookie(extended, SESSION)?.value).toBe(token)
    expect((await db.session(token!))!.expires.getTime()).toBeGreaterThan(stored.getTime())
  })
})

describe("(d) UPDATE of authenticators (the counter) fails during a passkey sign-in", () => {
  it("refused with AdapterError, no session cookie or row, the counter unchanged, no 5xx; fine once the fault clears", async () => {
    const logger = spyLogger()
    const { app, site } = buildApp({ adapter: db.adapter(), config: { logger } })
    await seedUser(db.adapter(), ALICE)
    const soft = softFor()
    await seedPasskey(db.adapter(), ALICE.id, soft, 5)
    const counter = async () =>
      Number((await db.sql().db.selectFrom(`${db.prefix}authenticators`).select("counter").where("credential_id", "=", soft.id).executeTakeFirstOrThrow()).counter)

    await refuse("authenticators", "UPDATE")
    const browser = new Browser(app, site)
    const { res } = await passkeySignIn(browser, soft)
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${site.origin}/auth/error?error=AdapterError`)
    expect(findCookie(res, names(site).session)?.value).toBeFalsy()
    expect((await db.counts()).sessions).toBe(0)
    expect(await counter()).toBe(5)
    expect(await browser.session()).toBeNull()
    expect(adapterErrors(logger)).toContainEqual({ method: "updateAuthenticator", message: "gatehouse-test: authenticators UPDATE refused" })

    await allow()
    const again = await passkeySignIn(browser, soft)
    expectSignedIn(again.res, site)
    expect(await counter()).toBeGreaterThan(5)
    expect((await db.counts()).sessions).toBe(1)
  })
})
