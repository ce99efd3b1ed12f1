/**
 * The audit-trail example against the real PostgreSQL: its table (a private name, dropped
 * afterwards) gets one row per record: a wrong password (failure, reason CredentialsSignin), the
 * sign-in, the sign-out, each with the request id the browser was answered with; no row holds the
 * password or a cookie; GET /audit lists the signed-in user's own events.
 */
import { randomBytes } from "node:crypto"
import type { Server } from "node:http"
import type { Express } from "express"
import type pg from "pg"
import supertest from "supertest"
import { jest } from "@jest/globals"

// Gatehouse logs the refused sign-in this test makes on purpose.
jest.spyOn(console, "error").mockImplementation(() => undefined)
jest.spyOn(console, "warn").mockImplementation(() => undefined)

const table = `ex_audit_${randomBytes(4).toString("hex")}`
process.env.AUDIT_TABLE = table
process.env.DATABASE_URL = process.env.GATEHOUSE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const example = (await import("../../examples/audit-postgres/index.js")) as { app: Express; pool: pg.Pool; createAuditTable: () => Promise<void> }
const { app, pool } = example

let server: Server
let url: string
beforeAll(async () => {
  await example.createAuditTable()
  server = app.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()))
  await pool.query(`DROP TABLE IF EXISTS "${table}"`)
  await pool.end()
})

type Row = { type: string; outcome: string; reason: string | null; user_id: string | null; provider: string | null; ip: string | null; user_agent: string | null; request_id: string | null; details: Record<string, unknown>; time: Date }

/** The rows, once `count` are there (the inserts are not awaited by the request). */
async function rows(count: number): Promise<Row[]> {
  for (let i = 0; i < 100; i++) {
    const { rows: found } = await pool.query<Row>(`SELECT * FROM "${table}" ORDER BY id`)
    if (found.length >= count) return found
    await new Promise((resolve) => setTimeout(resolve, 30))
  }
  throw new Error(`fewer than ${count} audit rows`)
}

async function signIn(agent: ReturnType<typeof supertest.agent>, password: string) {
  const csrf = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  return agent.post("/auth/callback/credentials").set("User-Agent", "audit-example-test").type("form").send({ csrfToken: csrf, username: "demo", password })
}

test("a wrong password, a sign-in and a sign-out are three rows with reason, user, address, user agent and request id; /audit lists the user's own", async () => {
  const agent = supertest.agent(url)
  const wrong = await signIn(agent, "not-demo-password")
  expect(String(wrong.headers.location)).toContain("error=CredentialsSignin")
  const good = await signIn(agent, "demo")
  expect(String(good.headers.location)).not.toContain("error=")
  const csrf = (await agent.get("/auth/csrf").expect(200)).body.csrfToken as string
  const out = await agent.post("/auth/signout").set("User-Agent", "audit-example-test").type("form").send({ csrfToken: csrf })
  expect(out.status).toBe(302)

  const [failure, success, signout] = await rows(3)
  expect(failure).toMatchObject({ type: "signin", outcome: "failure", reason: "CredentialsSignin", user_id: null, provider: "credentials", ip: "127.0.0.1", user_agent: "audit-example-test", request_id: wrong.headers["x-request-id"] })
  expect(success).toMatchObject({ type: "signin", outcome: "success", reason: null, user_id: "1", provider: "credentials", request_id: good.headers["x-request-id"], details: { method: "credentials", isNewUser: false } })
  expect(signout).toMatchObject({ type: "signout", outcome: "success", user_id: "1", request_id: out.headers["x-request-id"] })
  expect(Date.now() - success!.time.getTime()).toBeLessThan(60_000)

  const cookies = ([] as string[]).concat(good.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]!.split("=").slice(1).join("="))
  const stored = JSON.stringify(await rows(3))
  for (const secret of ["not-demo-password", csrf, ...cookies.filter((value) => value.length > 10)]) expect(stored.includes(secret)).toBe(false)

  const again = supertest.agent(url)
  await signIn(again, "demo")
  await rows(4)
  const mine = (await again.get("/audit").expect(200)).body as Array<{ type: string; outcome: string }>
  expect(mine.map((row) => `${row.type}:${row.outcome}`)).toEqual(["signin:success", "signout:success", "signin:success"])
  await supertest(url).get("/audit").set("Accept", "application/json").expect(401)
})
