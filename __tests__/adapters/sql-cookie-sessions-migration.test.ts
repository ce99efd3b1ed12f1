/**
 * Issue #14's cookie-session tables on a live database: a database as the previous release left it
 * (migrations up to 0005), with a user, an account-less database session and a sign-in made by
 * that release in it, is upgraded in place by `migrate()` (0006_cookie_sessions adds the
 * cookie-session records and revocations tables; nothing else changes). What was there keeps
 * working, and cookie sessions of an app with this adapter and no store are then recorded,
 * listed and revoked in the new tables. On SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomBytes, randomUUID } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { migrateTo } from "../../adapters/sql/schema.js"
import { tableNames } from "../../adapters/sql/tables.js"
import { codecFor, kindOf } from "../../adapters/sql/codec.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"
import { makeApp, signInAs, testConfig } from "../helpers/app.js"
import { agentFor } from "../database/engines.js"
import { sessionCookieHeader } from "../sessions/setups.js"

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database to 0006_cookie_sessions", (name) => {
  const tablePrefix = uniquePrefix(`mig06_${name.slice(0, 2)}`)
  let adapter: SqlAdapterInstance
  const token = randomBytes(32).toString("hex")
  const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + 7 * 86_400_000)

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0005_passkey_details")
    const codec = codecFor(kindOf(adapter.db))
    await adapter.db.insertInto(`${tablePrefix}users`).values({ id: "user-old", name: "Old Timer", email: "old@example.com", email_verified: null, image: null }).execute()
    await adapter.db.insertInto(`${tablePrefix}sessions`).values({ id: randomUUID(), session_token: token, user_id: "user-old", expires: codec.instant(expires) }).execute()
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0006 in place; the old rows stay; cookie sessions are then recorded and revoked in the new tables", async () => {
    await expect(sql`select sid from ${sql.table(`${tablePrefix}cookie_sessions`)}`.execute(adapter.db)).rejects.toBeTruthy()
    expect((await migrate(adapter.db, { tablePrefix }))[0]).toBe("0006_cookie_sessions")
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])

    // What the previous release wrote is untouched.
    expect((await adapter.getSessionAndUser(token))?.user.id).toBe("user-old")
    expect(await adapter.listCookieSessions("user-old")).toEqual([])
    expect(await adapter.listSessionRevocations({})).toEqual([])

    // An app on this database with cookie sessions and no store: the session is recorded in the database...
    const app = makeApp(testConfig({ adapter, session: { strategy: "cookie" } }))
    const browser = agentFor(app).set("User-Agent", "Upgraded/1.0")
    const response = await signInAs(browser, "alice")
    expect(response.status).toBe(302)
    const cookie = sessionCookieHeader(response)
    const userId = (await adapter.getUserByEmail("alice@example.com"))!.id
    const [record] = await adapter.listCookieSessions(userId)
    expect(record).toMatchObject({ userId, userAgent: "Upgraded/1.0" })
    const listed = (await browser.get("/auth/sessions").set("Accept", "application/json").expect(200)).body as Array<{ id: string; current: boolean }>
    expect(listed).toEqual([expect.objectContaining({ id: record!.sid, current: true, userAgent: "Upgraded/1.0" })])

    // ...and its sign-out is a revocation row, read by another instance on the same tables.
    const other = makeApp(testConfig({ adapter: SqlAdapter(adapter.db, { tablePrefix }), session: { strategy: "cookie" } }))
    expect((await agentFor(other).get("/api/me").set("Accept", "application/json").set("Cookie", cookie)).status).toBe(200)
    const csrfToken = (await browser.get("/auth/csrf").expect(200)).body.csrfToken as string
    await browser.post("/auth/signout").type("form").send({ csrfToken }).expect(302)
    const revocations = await adapter.listSessionRevocations({ keys: [record!.sid] })
    expect(revocations).toEqual([expect.objectContaining({ kind: "session", key: record!.sid })])
    expect(await adapter.listCookieSessions(userId)).toEqual([])
    await new Promise((resume) => setTimeout(resume, 1100))
    expect((await agentFor(other).get("/api/me").set("Accept", "application/json").set("Cookie", cookie)).status).toBe(401)
  })
})
