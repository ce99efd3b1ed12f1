/**
 * FAULT-01 — the database stops in the middle of use (SECURITY-CATALOG.md §14). A private
 * PostgreSQL cluster (never the shared one on 5432) holds the SQL adapter's tables; the app uses
 * database sessions, credentials and email sign-in (a real SMTP sink), and runs on a loopback port
 * for the whole file. Alice signs in, the cluster is stopped, and every request must be answered
 * within a bound, never granting access: JSON 503 AdapterError with Retry-After, pages the 503
 * error page, nothing about the database in any answer. The cluster is started again and the same
 * requests succeed within a few retries, without restarting the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import express from "express"
import request from "supertest"
import { SqlAdapter, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { AdapterError } from "../../lib/errors.js"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import type { AuthConfig } from "../../lib/types.js"
import { credentials, findCookie, serve, SECRET } from "../helpers/app.js"
import { startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { createCluster, type PgCluster } from "./support/pg-cluster.js"

/** No answer may take longer than this while the database is down (a no-hang bound, not a speed test). */
const BOUND_MS = 10_000
const PREFIX = "gh_"

let cluster: PgCluster | undefined
let adapter: SqlAdapterInstance | undefined
let smtp: SmtpSink
let site: { url: string; close: () => Promise<void> } | undefined
const logged: Error[] = []
const reached = { dashboard: 0, api: 0 }
/** Anything the process would have died of (a pool error emitted with no listener, a rejection). */
const fatal: unknown[] = []
const onFatal = (error: unknown) => fatal.push(error)

beforeAll(async () => {
  process.on("uncaughtException", onFatal)
  process.on("unhandledRejection", onFatal)
  cluster = await createCluster()
  // The adapter opened from a URL, as an app would: the pool is Gatehouse's own.
  adapter = SqlAdapter(cluster.url, { tablePrefix: PREFIX })
  await migrate(adapter.db, { tablePrefix: PREFIX })
  smtp = await startSmtp()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [credentials(), Nodemailer({ server: smtp.url, from: "no-reply@app.test" })],
    logger: { error: (error: Error) => void logged.push(error), warn: () => undefined, debug: () => undefined },
  }
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/dashboard", requireAuth(config), (req, res) => {
    reached.dashboard++
    res.type("html").send(`<h1>Dashboard of ${req.auth?.user?.name}</h1>`)
  })
  app.get("/api/me", requireAuth(config), (req, res) => {
    reached.api++
    res.json(req.auth)
  })
  site = await serve(app)
}, 120_000)

afterAll(async () => {
  await site?.close()
  await adapter?.close().catch(() => undefined)
  await smtp?.close()
  await cluster?.drop()
  process.off("uncaughtException", onFatal)
  process.off("unhandledRejection", onFatal)
}, 120_000)

/** A cookie-keeping client of the running app (its origin is the site's), every request bounded. */
function client() {
  const agent = request.agent(site!.url)
  const bounded = <T extends request.Test>(test: T) => test.timeout(BOUND_MS) as T
  return {
    agent,
    get: (path: string, accept = "application/json") => bounded(agent.get(path)).set("Accept", accept),
    post: (path: string, accept = "application/json") => bounded(agent.post(path)).set("Accept", accept).type("form"),
    async csrf(): Promise<string> {
      const response = await bounded(agent.get("/auth/csrf")).expect(200)
      return response.body.csrfToken as string
    },
  }
}
type Client = ReturnType<typeof client>

// The token first: the agent attaches its cookies when a request is created.
async function signIn(c: Client, accept = "application/json") {
  const csrfToken = await c.csrf()
  return c.post("/auth/callback/credentials", accept).send({ csrfToken, username: "alice", password: "correct-horse" })
}
async function askForLink(c: Client, accept = "application/json") {
  const csrfToken = await c.csrf()
  return c.post("/auth/signin/nodemailer", accept).send({ csrfToken, email: "alice@example.com" })
}

/** NO-LEAK: nothing about the database, the driver or the code in the answer. */
function expectNoLeak(response: { text: string; headers: Record<string, unknown> }): void {
  const everything = `${response.text}\n${JSON.stringify(response.headers)}`
  for (const leak of [/ECONNREFUSED/, /postgres(ql)?:\/\//, new RegExp(`:${cluster!.port}\\b`), /\bselect\b|\binsert\b|\bupdate\b.*\bset\b/i, /gh_(sessions|users)/, /\bat .+:\d+:\d+/, /node_modules/, /TypeError/, /terminating connection/]) {
    expect(everything).not.toMatch(leak)
  }
}

function expectAdapterErrorJson(response: request.Response): void {
  expect(response.status).toBe(503)
  expect(response.headers["content-type"]).toMatch(/^application\/json/)
  expect(response.headers["retry-after"]).toBe("5")
  expect(response.body.error).toEqual({ type: "AdapterError", message: expect.any(String) })
  expect(findCookie(response, "authjs.session-token")?.value).toBeFalsy()
  expectNoLeak(response)
}

function expectErrorPage(response: request.Response): void {
  expect(response.status).toBe(503)
  expect(response.headers["content-type"]).toMatch(/^text\/html/)
  expect(response.text).toContain("Temporarily unavailable")
  expectNoLeak(response)
}

/** Retries `attempt` (each bounded) until it passes, at most `tries` times, 500 ms apart. */
async function eventually(attempt: () => Promise<void>, tries = 20): Promise<number> {
  for (let i = 1; ; i++) {
    try {
      await attempt()
      return i
    } catch (error) {
      if (i >= tries) throw error
      await new Promise((resume) => setTimeout(resume, 500))
    }
  }
}

describe("FAULT-01: PostgreSQL stopped while alice is signed in, then started again", () => {
  const alice = () => client()
  let signedIn: Client

  it("before: alice signs in with credentials and reaches both protected routes", async () => {
    signedIn = alice()
    const response = await signIn(signedIn, "text/html")
    expect([response.status, response.headers.location]).toEqual([302, `${site!.url}/`])
    expect((await signedIn.get("/api/me").expect(200)).body.user.email).toBe("alice@example.com")
    expect((await signedIn.get("/dashboard", "text/html").expect(200)).text).toBe("<h1>Dashboard of Alice</h1>")
  })

  it("while stopped: no access, 503 AdapterError (JSON with Retry-After, or the error page), every answer bounded, nothing leaked", async () => {
    await cluster!.stop()
    // Let the pool notice its connections were terminated (the process must survive it), and let
    // the one-second per-process cache of database sessions (issue #14) lapse: past it, every read
    // asks the database.
    await new Promise((resume) => setTimeout(resume, 1200))
    const before = { ...reached }
    logged.length = 0

    expectAdapterErrorJson(await signedIn.get("/auth/session"))
    expectAdapterErrorJson(await signedIn.get("/api/me"))
    expectErrorPage(await signedIn.get("/dashboard", "text/html,application/xhtml+xml"))
    expect(reached).toEqual(before)

    // Signing in: JSON gets 503; a browser is sent to the error page, which says 503.
    const stranger = client()
    expectAdapterErrorJson(await signIn(stranger))
    const browser = await signIn(stranger, "text/html")
    expect([browser.status, browser.headers.location]).toEqual([302, `${site!.url}/auth/error?error=AdapterError`])
    expect(findCookie(browser, "authjs.session-token")).toBeUndefined()
    expectErrorPage(await stranger.get("/auth/error?error=AdapterError", "text/html"))

    // Email sign-in: no mail goes out without a stored token.
    const mails = smtp.messages.length
    expectAdapterErrorJson(await askForLink(stranger))
    const emailBrowser = await askForLink(stranger, "text/html")
    expect([emailBrowser.status, emailBrowser.headers.location]).toEqual([302, `${site!.url}/auth/error?error=AdapterError`])
    expect(smtp.messages.length).toBe(mails)

    // ALIVE: actions that need no database still answer.
    await signedIn.get("/auth/providers").expect(200)

    // The real cause went to the log, as AdapterErrors.
    expect(logged.length).toBeGreaterThan(0)
    expect(logged.every((error) => error instanceof AdapterError)).toBe(true)
    expect(fatal).toEqual([])
  })

  it("started again: the same requests succeed within a few retries, without restarting the app", async () => {
    await cluster!.start()
    const tries = await eventually(async () => {
      expect((await signedIn.get("/api/me")).status).toBe(200)
    })
    expect(tries).toBeLessThanOrEqual(20)
    expect((await signedIn.get("/auth/session").expect(200)).body.user.email).toBe("alice@example.com")
    expect((await signedIn.get("/dashboard", "text/html").expect(200)).text).toBe("<h1>Dashboard of Alice</h1>")

    const again = client()
    const response = await signIn(again, "text/html")
    expect([response.status, response.headers.location]).toEqual([302, `${site!.url}/`])
    expect((await again.get("/api/me").expect(200)).body.user.email).toBe("alice@example.com")

    const mails = smtp.messages.length
    const link = await askForLink(again, "text/html")
    expect([link.status, link.headers.location]).toEqual([302, `${site!.url}/auth/verify-request?provider=nodemailer&type=email`])
    await smtp.waitFor(mails + 1)
    expect(fatal).toEqual([])
  })
})
