/**
 * FAULT-01 done fully (issue #13): a TCP proxy (support/tcp-proxy.ts) between the app and the
 * shared PostgreSQL (tables of its own prefix) cuts every connection while 50 requests are in
 * flight: requireAuth, session reads and credentials sign-ins on database sessions. Each gets a
 * 503 with a named error or succeeds; none hangs past the bound; no 500; every stored session is
 * whole (its user exists) and every session a client was given is stored; after the proxy lets
 * connections through again everything works without a restart. The same for an OAuth callback
 * that is waiting on the provider when the database goes away: 503 AdapterError, no user without
 * its account, and the same person signs in once it is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import express from "express"
import { sql } from "kysely"
import { SqlAdapter, migrate, dropTables, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { authRouter, authSession, requireAuth } from "../../lib/index.js"
import type { AuthConfig } from "../../lib/types.js"
import { credentials, serve, SECRET } from "../helpers/app.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"
import { finishAt, startAt } from "./support/oauth-flow.js"
import { startOidcRogue, type OidcRogue } from "./support/oidc-rogue.js"
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js"

const BOUND_MS = 20_000
const prefix = uniquePrefix("cut")
let proxy: TcpProxy
let adapter: SqlAdapterInstance
/** A direct connection (not through the proxy): the back door to check rows. */
let direct: SqlAdapterInstance
let op: OidcRogue
let site: { url: string; close: () => Promise<void> }
const fatal: unknown[] = []
const onFatal = (error: unknown) => fatal.push(error)

beforeAll(async () => {
  process.on("uncaughtException", onFatal)
  process.on("unhandledRejection", onFatal)
  proxy = await startTcpProxy(Number(new URL(DATABASES.postgres).port || 5432))
  const viaProxy = new URL(DATABASES.postgres)
  viaProxy.port = String(proxy.port)
  direct = SqlAdapter(DATABASES.postgres, { tablePrefix: prefix })
  await migrate(direct.db, { tablePrefix: prefix })
  adapter = SqlAdapter(viaProxy.href, { tablePrefix: prefix })
  op = await startOidcRogue()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [credentials(), { id: "rogue", name: "Rogue", type: "oidc", issuer: op.url, clientId: "rogue-client", clientSecret: "s" }],
    logger: { error: () => undefined, warn: () => undefined, debug: () => undefined },
  }
  const app = express()
  app.use("/auth", authRouter(config))
  app.use(authSession(config))
  app.get("/api/me", requireAuth(config), (req, res) => void res.json(req.auth))
  site = await serve(app)
}, 60_000)

afterAll(async () => {
  await site?.close()
  await adapter?.close().catch(() => undefined)
  await proxy?.close()
  await op?.close()
  await dropTables(direct.db, { tablePrefix: prefix }).catch(() => undefined)
  await direct?.close()
  process.off("uncaughtException", onFatal)
  process.off("unhandledRejection", onFatal)
})

interface Answer {
  what: string
  status: number
  type?: string
  session?: string
}

function bounded(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(BOUND_MS) })
}

function sessionOf(response: Response): string | undefined {
  const line = response.headers.getSetCookie().find((cookie) => /^authjs\.session-token=[^;]+/.test(cookie))
  return line?.split(";")[0]?.split("=")[1]
}

async function csrf(): Promise<{ token: string; cookie: string }> {
  const response = await bounded(`${site.url}/auth/csrf`)
  return { token: ((await response.json()) as { csrfToken: string }).csrfToken, cookie: response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") }
}

async function signIn(pair: { token: string; cookie: string }): Promise<Answer> {
  const response = await bounded(`${site.url}/auth/callback/credentials`, {
    method: "POST",
    headers: { cookie: pair.cookie, accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: pair.token, username: "alice", password: "correct-horse" }),
  })
  const body = (await response.json().catch(() => ({}))) as { error?: { type?: string } }
  // Success is the redirect home with the session cookie (JSON is for refusals).
  const home = response.status === 302 && response.headers.get("location") === `${site.url}/`
  return { what: "sign-in", status: home ? 200 : response.status, type: body.error?.type, session: sessionOf(response) }
}

async function read(path: string, session: string): Promise<Answer> {
  const response = await bounded(`${site.url}${path}`, { headers: { cookie: `authjs.session-token=${session}`, accept: "application/json" } })
  const body = (await response.json().catch(() => ({}))) as { error?: { type?: string } }
  return { what: path, status: response.status, type: body?.error?.type }
}

async function storedSessions(): Promise<Array<{ sessionToken: string; userId: string; userExists: boolean }>> {
  const rows = await sql<{ session_token: string; user_id: string; found: string | null }>`
    select s.session_token, s.user_id, u.id as found from ${sql.table(`${prefix}sessions`)} s left join ${sql.table(`${prefix}users`)} u on u.id = s.user_id`.execute(direct.db)
  return rows.rows.map((row) => ({ sessionToken: row.session_token, userId: row.user_id, userExists: row.found !== null }))
}

async function eventually(attempt: () => Promise<void>, tries = 30): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await attempt()
    } catch (error) {
      if (i >= tries) throw error
      await new Promise((resume) => setTimeout(resume, 300))
    }
  }
}

describe("FAULT-01: every PostgreSQL connection cut with 50 requests in flight", () => {
  let alice: string

  it("before: alice signs in (database session) and reaches the protected API", async () => {
    const answer = await signIn(await csrf())
    expect(answer.status).toBe(200)
    alice = answer.session as string
    expect(alice).toBeTruthy()
    expect((await read("/api/me", alice)).status).toBe(200)
  })

  it("the cut: each request succeeds or gets 503 AdapterError, none hangs, no 500; no half-written rows", async () => {
    const pairs = await Promise.all(Array.from({ length: 15 }, () => csrf()))
    proxy.latency = 150
    const inFlight: Array<Promise<Answer>> = [
      ...Array.from({ length: 20 }, () => read("/api/me", alice)),
      ...Array.from({ length: 15 }, () => read("/auth/session", alice)),
      ...pairs.map((pair) => signIn(pair)),
    ]
    await new Promise((resume) => setTimeout(resume, 100))
    const openedBefore = proxy.opened
    proxy.cut()
    const answers = await Promise.all(inFlight)
    expect(openedBefore).toBeGreaterThan(0)
    expect(answers).toHaveLength(50)
    for (const answer of answers) {
      const ok = answer.status === 200
      const unavailable = answer.status === 503 && answer.type === "AdapterError"
      expect([answer.what, answer.status, ok || unavailable]).toEqual([answer.what, answer.status, true])
    }
    // The cut really hit requests in flight: some were refused.
    expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(0)

    proxy.latency = 0
    proxy.restore()
    const stored = await storedSessions()
    expect(stored.every((row) => row.userExists)).toBe(true)
    // Every session a client was handed is stored whole.
    const given = answers.flatMap((answer) => (answer.session ? [answer.session] : []))
    for (const token of given) expect(stored.map((row) => row.sessionToken)).toContain(token)
    expect(fatal).toEqual([])
  }, 60_000)

  it("after the proxy lets connections through: alice, new sign-ins and the sessions handed out work, without a restart", async () => {
    await eventually(async () => expect((await read("/api/me", alice)).status).toBe(200))
    const again = await signIn(await csrf())
    expect(again.status).toBe(200)
    expect((await read("/api/me", again.session as string)).status).toBe(200)
  })
})

describe("FAULT-01: an OAuth callback waiting on the provider when the database goes away", () => {
  it("ends with 503 AdapterError (the error page), leaves no user without its account, and the sign-in works once the database is back", async () => {
    const started = await startAt(site.url, "rogue")
    op.tokenDelay = 500
    const pending = finishAt(site.url, started)
    await new Promise((resume) => setTimeout(resume, 200))
    proxy.cut()
    const outcome = await pending
    op.tokenDelay = 0
    expect([outcome.status, outcome.signedIn]).toEqual([302, false])
    expect(`${outcome.location.pathname}?${outcome.location.searchParams}`).toBe("/auth/error?error=AdapterError")
    proxy.restore()

    const orphans = await sql<{ id: string }>`
      select u.id from ${sql.table(`${prefix}users`)} u where u.email like 'user-%' and not exists (select 1 from ${sql.table(`${prefix}accounts`)} a where a.user_id = u.id)`.execute(direct.db)
    expect(orphans.rows).toEqual([])

    await eventually(async () => {
      const retry = await finishAt(site.url, await startAt(site.url, "rogue"))
      expect(retry.signedIn).toBe(true)
    })
    const accounts = await sql<{ n: string }>`select count(*) as n from ${sql.table(`${prefix}accounts`)}`.execute(direct.db)
    expect(Number(accounts.rows[0]?.n)).toBeGreaterThanOrEqual(1)
    expect(fatal).toEqual([])
  })
})
