/**
 * Issue #14's schema change on a live database: a database made by the previous schema (migration
 * 0001 only) with a user and a session in it is upgraded in place by `migrate()` (0002 adds
 * created_at, last_seen_at, user_agent, ip to sessions). The old session keeps working: it reads,
 * it is listed (facts unknown: null) and can be revoked; new sessions record their facts. On
 * SQLite, PostgreSQL and MariaDB.
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

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database made by the previous schema", (name) => {
  const tablePrefix = uniquePrefix(`mig14_${name.slice(0, 2)}`)
  let adapter: SqlAdapterInstance
  const token = randomBytes(32).toString("hex")
  const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + 7 * 86_400_000)

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0001_initial")
    const codec = codecFor(kindOf(adapter.db))
    await adapter.db.insertInto(`${tablePrefix}users`).values({ id: "user-old", name: "Old Timer", email: "old@example.com", email_verified: null, image: null }).execute()
    await adapter.db.insertInto(`${tablePrefix}sessions`).values({ id: randomUUID(), session_token: token, user_id: "user-old", expires: codec.instant(expires) }).execute()
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0002_session_facts in place; the old session keeps working, is listed and can be revoked", async () => {
    // The previous schema: no facts columns.
    await expect(sql`select created_at from ${sql.table(`${tablePrefix}sessions`)}`.execute(adapter.db)).rejects.toBeTruthy()
    // 0002 is applied first (later migrations, added by other features, may follow it).
    const applied = await migrate(adapter.db, { tablePrefix })
    expect(applied[0]).toBe("0002_session_facts")
    expect(applied).not.toContain("0001_initial")
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])

    const found = await adapter.getSessionAndUser(token)
    expect(found?.user.id).toBe("user-old")
    expect(found?.session.expires.getTime()).toBe(expires.getTime())
    expect(await adapter.listSessionsByUserId("user-old")).toEqual([
      // The facts unknown: absent, as the Auth.js contract wrote the session.
      { sessionToken: token, userId: "user-old", expires },
    ])

    const app = makeApp(testConfig({ adapter, session: { strategy: "database" } }))
    const old = () => agentFor(app).set("Cookie", `authjs.session-token=${token}`)
    const me = await old().get("/api/me").set("Accept", "application/json").expect(200)
    expect(me.body.user.email).toBe("old@example.com")
    const listed = (await old().get("/auth/sessions").set("Accept", "application/json").expect(200)).body
    // That read was due a refresh (7 days left of 30): the expiry moved, and with it the last-seen time.
    expect(listed).toEqual([{ id: expect.any(String), current: true, createdAt: null, lastSeenAt: expect.any(String), expires: expect.any(String), userAgent: null, ip: null }])
    expect(Date.parse(listed[0].expires)).toBeGreaterThan(expires.getTime())

    // A new session (sign-in) records its facts next to the old one.
    const browser = agentFor(app).set("User-Agent", "New/1.0")
    expect((await signInAs(browser, "alice")).status).toBe(302)
    const alice = await adapter.getUserByEmail("alice@example.com")
    const [fresh] = await adapter.listSessionsByUserId(alice!.id)
    expect(fresh).toMatchObject({ userAgent: "New/1.0", ip: expect.stringMatching(/127\.0\.0\.1|::1/), createdAt: expect.any(Date), lastSeenAt: expect.any(Date) })

    // The old session can be ended like any other.
    expect(await adapter.deleteSessionsByUserId("user-old")).toBe(1)
    expect(await adapter.getSessionAndUser(token)).toBeNull()
  })
})
