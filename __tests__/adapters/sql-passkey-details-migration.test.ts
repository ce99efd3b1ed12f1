/**
 * Issue #15's schema change on a live database: a database made by the previous schema (up to
 * 0004_passwords) with a user and a passkey in it is upgraded in place by `migrate()` (0005 adds
 * name, created_at, last_used_at to authenticators). The old passkey keeps working: it is read
 * with its details unknown (null), signs in (and from then on has a last use), is listed on the
 * account page with the fallback name, and can be renamed. On SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { randomUUID } from "node:crypto"
import { sql } from "kysely"
import { SqlAdapter, dropTables, migrate, type SqlAdapterInstance } from "../../adapters/sql/index.js"
import { migrateTo } from "../../adapters/sql/schema.js"
import { tableNames } from "../../adapters/sql/tables.js"
import { codecFor, kindOf } from "../../adapters/sql/codec.js"
import { DATABASES, uniquePrefix } from "../helpers/databases.js"
import { Browser, buildApp, expectSignedIn, passkeySignIn, softFor } from "../webauthn/fixtures.js"
import { b64url } from "../webauthn/soft-authenticator.js"

describe.each(["sqlite", "postgres", "mariadb"] as const)("upgrading a %s database made before passkey details", (name) => {
  const tablePrefix = uniquePrefix(`mig15_${name.slice(0, 2)}`)
  const soft = softFor()
  const userId = `user-old-${randomUUID()}`
  let adapter: SqlAdapterInstance

  beforeAll(async () => {
    adapter = SqlAdapter(DATABASES[name], { tablePrefix })
    await migrateTo(adapter.db, tableNames({ tablePrefix }), "0004_passwords")
    const codec = codecFor(kindOf(adapter.db))
    const t = (table: string) => `${tablePrefix}${table}`
    await adapter.db.insertInto(t("users")).values({ id: userId, name: "Old Timer", email: `old-${userId}@example.com`, email_verified: null, image: null }).execute()
    await adapter.db.insertInto(t("accounts")).values({ id: randomUUID(), user_id: userId, type: "webauthn", provider: "passkey", provider_account_id: soft.id }).execute()
    await adapter.db
      .insertInto(t("authenticators"))
      .values({
        credential_id: soft.id,
        user_id: userId,
        provider_account_id: soft.id,
        credential_public_key: soft.cosePublicKey().toString("base64"),
        counter: 4,
        credential_device_type: "singleDevice",
        credential_backed_up: codec.bool(false),
        transports: "internal",
      })
      .execute()
    soft.userHandle = b64url(userId)
    soft.signCount = 4
  }, 30_000)

  afterAll(async () => {
    await dropTables(adapter.db, { tablePrefix })
    await adapter.close()
  })

  it("migrate() applies 0005_passkey_details in place; the old passkey signs in, gets a last use, is listed with the fallback name and can be renamed", async () => {
    // The previous schema: no details columns.
    await expect(sql`select name from ${sql.table(`${tablePrefix}authenticators`)}`.execute(adapter.db)).rejects.toBeTruthy()
    const applied = await migrate(adapter.db, { tablePrefix })
    expect(applied[0]).toBe("0005_passkey_details")
    expect(applied).not.toContain("0004_passwords")
    expect(await migrate(adapter.db, { tablePrefix })).toEqual([])

    // Kept, every field as it was; the details unknown, so absent (as the Auth.js contract wrote it).
    expect(await adapter.getAuthenticator(soft.id)).toEqual({
      credentialID: soft.id,
      userId,
      providerAccountId: soft.id,
      credentialPublicKey: soft.cosePublicKey().toString("base64"),
      counter: 4,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal",
    })

    // It signs in; the sign-in records the counter and the time of this use.
    const { app } = buildApp({ adapter })
    const browser = new Browser(app)
    const before = Date.now()
    expectSignedIn((await passkeySignIn(browser, soft)).res)
    const used = await adapter.getAuthenticator(soft.id)
    expect(used?.counter).toBe(5)
    expect(used?.lastUsedAt?.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
    expect(used?.createdAt).toBeUndefined()

    // The account page: the end of its id for a name, its last use, no creation date (unknown).
    const page = await browser.get("/auth/account", { "Accept-Language": "en" })
    expect(page.status).toBe(200)
    expect(page.text).toContain(`Passkey ${soft.id.slice(-8)}`)
    expect(page.text).toContain("Last used ")
    expect(page.text).not.toContain("Added ")

    const renamed = await browser.post("/auth/account/passkey-rename", { csrfToken: await browser.csrf(), credentialID: soft.id, name: "  Old laptop  " })
    expect(renamed.status).toBe(302)
    expect(String(renamed.headers.location)).toMatch(/\/auth\/account\?saved=passkey-rename$/)
    const row = await adapter.db.selectFrom(`${tablePrefix}authenticators`).select("name").where("credential_id", "=", soft.id).executeTakeFirst()
    expect(row?.name).toBe("Old laptop")
    expect((await browser.get("/auth/account")).text).toContain("Old laptop")
  })
})
