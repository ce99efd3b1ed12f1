/**
 * LOAD-04 (SECURITY-CATALOG.md §15) — concurrent refreshes of one session.
 * - Database strategy on PostgreSQL with `updateAge: 0` (every read moves the expiry): 200
 *   concurrent GET /auth/session with alice's one cookie. No 5xx, nothing logged, every answer
 *   names alice, and afterwards exactly one session row for that token (and for alice) whose
 *   `expires` is now + maxAge (30 days, within a minute).
 * - Cookie strategy with a session big enough to be chunked, `updateAge: 0` (every read re-seals):
 *   200 concurrent reads; every answer's set of chunks is complete on its own (read back alone, it
 *   opens to alice's session).
 */
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { POSTGRES_URL, report, startApp, stopAll } from "./support/process.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { CookieJar, SESSION_COOKIE, readSession, signedIn } from "./support/process-http.js"

const CONCURRENT = 200
const MAX_AGE_S = 30 * 24 * 60 * 60
const SECRETS = JSON.stringify(["load-04-secret-0123456789abcdef0123456789"])

let tables: TestTables
const rows: Record<string, string | number>[] = []

beforeAll(async () => {
  tables = await createTables("load04")
})

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  report(`LOAD-04 ${CONCURRENT} concurrent refreshes of one session`, rows)
})

interface Answer {
  status: number
  body: string
  setCookies: string[]
  ms: number
}

async function concurrentReads(origin: string, cookie: string): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const started = performance.now()
      const response = await fetch(`${origin}/auth/session`, { headers: { cookie } })
      return { status: response.status, body: await response.text(), setCookies: response.headers.getSetCookie(), ms: performance.now() - started }
    }),
  )
}

const summary = (label: string, answers: Answer[], extra: Record<string, string | number>) => ({
  run: label,
  answers: answers.length,
  "ok (200)": answers.filter((answer) => answer.status === 200).length,
  "5xx": answers.filter((answer) => answer.status >= 500).length,
  "slowest ms": Math.max(...answers.map((answer) => answer.ms)),
  ...extra,
})

describe("LOAD-04 concurrent refreshes of one session", () => {
  test("database strategy, updateAge 0: one row for the token, a sane expiry, no 5xx", async () => {
    const app = await startApp("db", { GH_SECRETS: SECRETS, GH_DB: POSTGRES_URL, GH_TABLE_PREFIX: tables.prefix, GH_STRATEGY: "database", GH_UPDATE_AGE: "0" })
    const jar = await signedIn(app.origin, app.origin, "alice", "correct-horse")
    const token = jar.cookies.get(SESSION_COOKIE) as string
    const linesBefore = app.stderrLines()
    const before = Date.now()
    const answers = await concurrentReads(app.origin, jar.header())
    const after = Date.now()

    expect(answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body.slice(0, 200)}`)).toEqual([])
    for (const answer of answers) expect(JSON.parse(answer.body)?.user?.email).toBe("alice@example.com")
    // A refreshed cookie keeps the same token (the database strategy never swaps it on a read).
    for (const answer of answers) {
      for (const line of answer.setCookies.filter((line) => line.startsWith(`${SESSION_COOKIE}=`))) expect(line.startsWith(`${SESSION_COOKIE}=${token};`)).toBe(true)
    }
    expect(app.stderr().split("\n").slice(linesBefore).join("\n").trim()).toBe("")

    const db = tables.adapter.db
    const forToken = await db.selectFrom(`${tables.prefix}sessions`).selectAll().where("session_token", "=", token).execute()
    const user = await db.selectFrom(`${tables.prefix}users`).select("id").where("email", "=", "alice@example.com").executeTakeFirstOrThrow()
    const forUser = await db.selectFrom(`${tables.prefix}sessions`).select("id").where("user_id", "=", user.id).execute()
    expect(forToken).toHaveLength(1)
    expect(forUser).toHaveLength(1)
    const expires = new Date(forToken[0].expires as string | Date).getTime()
    expect(expires).toBeGreaterThanOrEqual(before + MAX_AGE_S * 1000 - 60_000)
    expect(expires).toBeLessThanOrEqual(after + MAX_AGE_S * 1000 + 60_000)
    // The session still works afterwards.
    expect((await readSession(app.origin, jar)).body?.user?.email).toBe("alice@example.com")
    rows.push(summary("PostgreSQL, updateAge 0", answers, { "rows for token": forToken.length, "expires - now (days)": (expires - after) / 86_400_000 }))
    await app.stop()
  })

  test("chunked JWE cookie, updateAge 0: every answer's chunks open on their own", async () => {
    const app = await startApp("chunked", { GH_SECRETS: SECRETS, GH_BIG_SESSION: "1", GH_UPDATE_AGE: "0" })
    const jar = await signedIn(app.origin, app.origin, "alice", "correct-horse")
    const chunkNames = [...jar.cookies.keys()].filter((name) => name.startsWith(`${SESSION_COOKIE}.`))
    expect(chunkNames.length).toBeGreaterThanOrEqual(2)
    const linesBefore = app.stderrLines()
    const answers = await concurrentReads(app.origin, jar.header())

    expect(answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body.slice(0, 200)}`)).toEqual([])
    for (const answer of answers) expect(JSON.parse(answer.body)?.user?.email).toBe("alice@example.com")
    let resealed = 0
    for (const answer of answers) {
      const own = new CookieJar()
      for (const line of answer.setCookies) {
        const [pair = ""] = line.split(";")
        const at = pair.indexOf("=")
        if (pair.startsWith(SESSION_COOKIE) && pair.slice(at + 1)) own.cookies.set(pair.slice(0, at), pair.slice(at + 1))
      }
      if (!own.cookies.size) continue
      resealed++
      expect((await readSession(app.origin, own)).body?.user?.email).toBe("alice@example.com")
    }
    expect(app.stderr().split("\n").slice(linesBefore).join("\n").trim()).toBe("")
    rows.push(summary("chunked JWE, updateAge 0", answers, { "rows for token": "-", "expires - now (days)": `${resealed} re-sealed, all open` }))
    await app.stop()
  })
})
