/**
 * Issue #14 across processes that share only a database (no Redis, no `store`): two app
 * processes A and B with cookie sessions and the SQL adapter on one SQLite file, on PostgreSQL
 * and on MariaDB. Revoking one session and the others on A, revokeUserSessions on B, and a
 * sign-out on A must read as signed out on the other process within one second (README
 * "Sessions and devices": each process polls the database for new revocations at most every half
 * second and trusts what it knows for one second). A request sent more than a second after the
 * revoking response and answered as signed in fails the test; each delay (revoking response to
 * the first 401) is printed.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "gatehouse/adapters/sql"
import { POSTGRES_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { csrf, postForm, send, signedIn, signOut, type CookieJar } from "./support/process-http.js"

const SECRETS = JSON.stringify(["revocation-adapter-secret-0123456789abcdef0123"])
const MARIADB_URL = process.env.GATEHOUSE_TEST_MARIADB_URL ?? "mysql://root@127.0.0.1:3306/test"
const BOUND_MS = 1000
const rows: Record<string, string | number>[] = []
const directory = mkdtempSync(join(tmpdir(), "gh14-adapter-procs-"))

afterAll(async () => {
  await stopAll()
  rmSync(directory, { recursive: true, force: true })
  report("Issue #14: revocations across two processes sharing only a database (no Redis)", rows)
})

const me = (origin: string, cookie: string) => fetch(`${origin}/api/me`, { headers: { cookie, accept: "application/json" } })

/** Milliseconds from `since` until `origin` answers 401 to `cookie`; fails if a request sent past the bound is answered 200. */
async function untilSignedOut(origin: string, cookie: string, since = performance.now()): Promise<number> {
  for (;;) {
    const sent = performance.now()
    const status = (await me(origin, cookie)).status
    if (status === 401) return performance.now() - since
    expect(status).toBe(200)
    if (sent - since > BOUND_MS) throw new Error(`still signed in on the other process ${(sent - since).toFixed(0)} ms after the revocation`)
    await new Promise((resume) => setTimeout(resume, 2))
  }
}

async function sessionsOf(origin: string, jar: CookieJar): Promise<Array<{ id: string; current: boolean }>> {
  const response = await send(jar, `${origin}/auth/sessions`, { headers: { accept: "application/json" } })
  expect(response.status).toBe(200)
  return (await response.json()) as Array<{ id: string; current: boolean }>
}

const databases: Array<[string, () => string]> = [
  ["SQLite file", () => `sqlite:${join(directory, "shared.db")}`],
  ["PostgreSQL", () => POSTGRES_URL],
  ["MariaDB", () => MARIADB_URL],
]

describe.each(databases)("two processes, cookie sessions, %s only", (label, url) => {
  const tablePrefix = `res_adrev_${randomBytes(4).toString("hex")}_`
  let database: SqlAdapterInstance
  let A: AppProcess
  let B: AppProcess
  const row = (check: string, ms: number | string) => rows.push({ database: label, check, "ms until signed out": typeof ms === "number" ? ms.toFixed(1) : ms })

  beforeAll(async () => {
    database = SqlAdapter(url(), { tablePrefix })
    await migrate(database.db, { tablePrefix })
    const env = { GH_SECRETS: SECRETS, GH_DB: url(), GH_TABLE_PREFIX: tablePrefix, GH_STRATEGY: "cookie", GH_ADMIN: "1" }
    ;[A, B] = await Promise.all([startApp(`A-${label}`, env), startApp(`B-${label}`, env)])
  })

  afterAll(async () => {
    await Promise.all([A?.stop(), B?.stop()])
    await dropTables(database.db, { tablePrefix })
    await database.close()
  })

  test("a session revoked on A reads as signed out on B within one second; its copied cookie too; the other session stays", async () => {
    const laptop = await signedIn(A.origin, A.origin, "alice", "correct-horse")
    const phone = await signedIn(B.origin, B.origin, "alice", "correct-horse")
    const copied = phone.header()
    expect((await me(B.origin, copied)).status).toBe(200)
    // Listed on A although it started on B: the records are in the database.
    const listed = await sessionsOf(A.origin, laptop)
    expect(listed).toHaveLength(2)
    const phoneId = listed.find((entry) => !entry.current)!.id
    const response = await postForm(A.origin, "/auth/sessions/revoke", laptop, { csrfToken: await csrf(A.origin, laptop), id: phoneId }, { accept: "application/json" })
    expect(response.status).toBe(200)
    row("revoke one session on A, read on B", await untilSignedOut(B.origin, copied))
    expect((await me(B.origin, laptop.header())).status).toBe(200)
    expect((await me(A.origin, copied)).status).toBe(401)
  })

  test("revoking the others on A signs them out on B; this one stays", async () => {
    const keep = await signedIn(A.origin, A.origin, "bob", "battery-staple")
    const other = await signedIn(B.origin, B.origin, "bob", "battery-staple")
    expect((await me(B.origin, other.header())).status).toBe(200)
    const response = await postForm(A.origin, "/auth/sessions/revoke", keep, { csrfToken: await csrf(A.origin, keep), others: "1" }, { accept: "application/json" })
    expect(response.status).toBe(200)
    row("revoke others on A, read on B", await untilSignedOut(B.origin, other.header()))
    expect((await me(B.origin, keep.header())).status).toBe(200)
  })

  test("revokeUserSessions on B ends the user's sessions read on A", async () => {
    const first = await signedIn(A.origin, A.origin, "load-1", "pw-1")
    const second = await signedIn(B.origin, B.origin, "load-1", "pw-1")
    const bystander = await signedIn(A.origin, A.origin, "load-2", "pw-2")
    for (const jar of [first, second]) expect((await me(A.origin, jar.header())).status).toBe(200)
    const userId = String((await database.getUserByEmail("load-1@example.com"))!.id)
    const since = performance.now()
    const response = await fetch(`${B.origin}/__revoke-user/${encodeURIComponent(userId)}`, { method: "POST" })
    expect(response.status).toBe(200)
    const delays = [await untilSignedOut(A.origin, first.header(), since), await untilSignedOut(A.origin, second.header(), since)]
    row("revokeUserSessions on B, read on A", delays.map((ms) => ms.toFixed(1)).join(", "))
    expect((await me(A.origin, bystander.header())).status).toBe(200)
  })

  test("sign-out on A: the cookie copied before, replayed on B, reads as signed out", async () => {
    const jar = await signedIn(A.origin, A.origin, "load-3", "pw-3")
    const copied = jar.header()
    expect((await me(B.origin, copied)).status).toBe(200)
    expect((await signOut(A.origin, jar)).status).toBe(302)
    row("sign out on A, replay the copied cookie on B", await untilSignedOut(B.origin, copied))
  })
})
