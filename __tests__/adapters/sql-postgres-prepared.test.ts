/**
 * On PostgreSQL the session lookup of every request runs as a named prepared statement on each
 * pooled connection. The app keeps working when its users table changes under it: a column added
 * by the app's own migration while the connections live does not break the lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { sql } from "kysely"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix } from "../helpers/databases.js"

const prefix = uniquePrefix("prepared")
let adapter: SqlAdapterInstance

beforeAll(async () => {
  adapter = await openTestDatabase("postgres", prefix)
})
afterAll(async () => {
  await closeTestDatabase(adapter, prefix)
})

const lookups = (token: string, count: number) => Promise.all(Array.from({ length: count }, () => adapter.getSessionAndUser(token)))

describe("the prepared session lookup on PostgreSQL", () => {
  it("finds the session on every pooled connection, and still after the app adds a column to its users table", async () => {
    const user = await adapter.createUser({ id: "prepared-user", email: "prepared@example.com", name: "P", emailVerified: null })
    const expires = new Date(Date.now() + 3_600_000)
    await adapter.createSession({ sessionToken: "prepared-token", userId: user.id, expires })
    // Ten at once: every connection of the pool prepares the statement.
    for (const found of await lookups("prepared-token", 10)) {
      expect(found?.user).toMatchObject({ id: user.id, email: "prepared@example.com" })
      expect(found?.session.expires.getTime()).toBe(expires.getTime())
    }
    await sql.raw(`alter table ${prefix}users add column favourite_colour text default 'teal'`).execute(adapter.db)
    for (const found of await lookups("prepared-token", 10)) {
      expect(found?.user).toEqual({ id: user.id, email: "prepared@example.com", name: "P", emailVerified: null, image: null })
    }
    expect(await adapter.getSessionAndUser("no-such-token")).toBeNull()
  })
})
