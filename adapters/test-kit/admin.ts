/**
 * Contract checks for the admin methods (issue #30): `listUsers` in email, then id order (users
 * without an email first), a page at a time after the last user of the previous page, each user
 * once; `search` matching an exact id, or part of an email or name ignoring case, with `%`, `_`
 * and other pattern characters taken literally; `limit` kept. Bans: one per user, created or
 * replaced, read back with Dates and nulls as written, lifted once, gone with their user.
 *
 * Other checks' users share the storage, so each check marks its users with a marker of its own
 * (in their emails or names) and searches by it, or starts after one of its own users.
 */
import { randomBytes } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterUser } from "../../lib/adapters.js"
import type { AdapterUserBan } from "../../lib/admin/adapter.js"
import { newUser, type ContractContext } from "./fixtures.js"

/** Whole seconds, so every engine stores and returns them exactly; `offset` in seconds. */
const BASE = Math.floor(Date.now() / 1000) * 1000
const at = (offset: number) => new Date(BASE + offset * 1000)

/** A marker no other user has: lowercase letters and digits, so upper-casing it changes it. */
const newMarker = () => `adm${randomBytes(5).toString("hex")}`

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
/** The contract's order. The checks' emails differ only in ASCII letters, where every engine agrees with it. */
const inOrder = (users: AdapterUser[]) => [...users].sort((a, b) => compare(a.email, b.email) || compare(a.id, b.id))
const ids = (users: AdapterUser[]) => users.map((user) => user.id)

export function adminChecks({ adapter, check }: ContractContext): void {
  /** Stores users with these emails and names; returns them as stored (the adapter's ids). */
  const users = (...fields: { email: string; name: string | null }[]) => Promise.all(fields.map((user) => adapter().createUser(newUser(user))))

  check("listUsers pages through users in email, then id order (those without an email first): with limit 2, each exactly once", async () => {
    const marker = newMarker()
    // Created out of order; two without an email, ordered by id among themselves.
    const created = await users(
      { email: `${marker}-d@example.com`, name: `Dee ${marker}` },
      { email: "", name: `No email ${marker} 1` },
      { email: `${marker}-a@example.com`, name: null },
      { email: `${marker}-c@example.com`, name: "Cee" },
      { email: "", name: `No email ${marker} 2` },
      { email: `${marker}-b@example.com`, name: "Bee" },
      { email: `${marker}-e@example.com`, name: null },
    )
    const expected = ids(inOrder(created))
    expect(ids(await adapter().listUsers({ search: marker, limit: 101 }))).toEqual(expected)

    const visited: string[] = []
    let after: { email: string; id: string } | undefined
    for (let page = 0; page < 10; page++) {
      const found = await adapter().listUsers({ search: marker, limit: 2, ...(after && { after }) })
      expect(found.length).toBeLessThanOrEqual(2)
      visited.push(...ids(found))
      const last = found.at(-1)
      if (found.length < 2 || !last) break
      after = { email: last.email, id: last.id }
    }
    expect(visited).toEqual(expected)
  })

  check("listUsers without a search starts after `after` and keeps `limit`", async () => {
    const marker = newMarker()
    const [a, b, c] = await users({ email: `${marker}-a@example.com`, name: null }, { email: `${marker}-b@example.com`, name: null }, { email: `${marker}-c@example.com`, name: null })
    // No other user's email sorts between two of these (they share the marker, which only they have).
    const next = await adapter().listUsers({ after: { email: a.email, id: a.id }, limit: 2 })
    expect(ids(next)).toEqual([b.id, c.id])
    const one = await adapter().listUsers({ after: { email: b.email, id: b.id }, limit: 1 })
    expect(ids(one)).toEqual([c.id])
    expect((await adapter().listUsers({ limit: 3 })).length).toBe(3)
  })

  check("listUsers search matches part of an email or of a name ignoring case (names may be null); limit is kept", async () => {
    const marker = newMarker()
    const [byEmail, byName, other] = await users(
      // Stored with capitals: the search ignores case on both sides.
      { email: `${marker}-Alice@Example.com`, name: null },
      { email: `${marker}-zed@example.com`, name: `Zed ${marker}-aLiCe Doe` },
      { email: `${marker}-bob@example.com`, name: "Bob" },
    )
    const found = await adapter().listUsers({ search: `${marker}-ALICE`.toUpperCase(), limit: 101 })
    expect(ids(found)).toEqual([byEmail.id, byName.id])
    expect(found[0]).toEqual(byEmail)
    expect(ids(await adapter().listUsers({ search: `${marker}-BOB@EXAMPLE`, limit: 101 }))).toEqual([other.id])
    expect(ids(await adapter().listUsers({ search: marker, limit: 2 }))).toEqual([byEmail.id, other.id])
  })

  check("listUsers search matches an exact id; part of an id is not an id", async () => {
    const marker = newMarker()
    const [wanted] = await users({ email: `${marker}-a@example.com`, name: "Wanted" }, { email: `${marker}-b@example.com`, name: "Other" })
    expect(ids(await adapter().listUsers({ search: wanted.id, limit: 101 }))).toEqual([wanted.id])
    const part = await adapter().listUsers({ search: wanted.id.slice(0, -1), limit: 101 })
    expect(ids(part)).not.toContain(wanted.id)
  })

  check("listUsers search takes %, _, ! and \\ literally, not as wildcards", async () => {
    const marker = newMarker()
    const [underscore, , percent, , bang, , backslash] = await users(
      { email: `${marker}-a_b@example.com`, name: null },
      { email: `${marker}-axb@example.com`, name: null },
      { email: `${marker}-p@example.com`, name: `${marker} 50% off` },
      { email: `${marker}-q@example.com`, name: `${marker} 50 and more off` },
      { email: `${marker}-r@example.com`, name: `${marker} wow!` },
      { email: `${marker}-s@example.com`, name: `${marker} wowx` },
      { email: `${marker}-t@example.com`, name: `${marker} back\\slash` },
    )
    expect(ids(await adapter().listUsers({ search: `${marker}-a_b`, limit: 101 }))).toEqual([underscore.id])
    expect(ids(await adapter().listUsers({ search: `${marker} 50%`, limit: 101 }))).toEqual([percent.id])
    expect(ids(await adapter().listUsers({ search: `${marker} wow!`, limit: 101 }))).toEqual([bang.id])
    expect(ids(await adapter().listUsers({ search: `${marker} back\\slash`, limit: 101 }))).toEqual([backslash.id])
    expect(await adapter().listUsers({ search: `${marker}%`, limit: 101 })).toEqual([])
    expect(await adapter().listUsers({ search: `${marker}_`, limit: 101 })).toEqual([])
  })

  check("putUserBan stores a ban read back as written (Dates as Dates, nulls as null); it replaces the user's ban", async () => {
    const [banned, admin] = await users({ email: `${newMarker()}@example.com`, name: null }, { email: `${newMarker()}@example.com`, name: "Admin" })
    expect(await adapter().getUserBan(banned.id)).toBeNull()
    const first: AdapterUserBan = { userId: banned.id, reason: "Spam", expires: at(3600), createdAt: at(0), bannedBy: admin.id }
    await adapter().putUserBan(first)
    const read = await adapter().getUserBan(banned.id)
    expect(read).toEqual(first)
    expect(read?.createdAt).toBeInstanceOf(Date)
    expect(read?.expires).toBeInstanceOf(Date)

    const second: AdapterUserBan = { userId: banned.id, reason: null, expires: null, createdAt: at(60), bannedBy: null }
    await adapter().putUserBan(second)
    expect(await adapter().getUserBan(banned.id)).toEqual(second)
    expect(await adapter().getUserBan(admin.id)).toBeNull()
  })

  check("deleteUserBan lifts the ban: true once, then false; another user's ban stays", async () => {
    const [one, two] = await users({ email: `${newMarker()}@example.com`, name: null }, { email: `${newMarker()}@example.com`, name: null })
    const ban = (userId: string): AdapterUserBan => ({ userId, reason: "Abuse", expires: null, createdAt: at(0), bannedBy: null })
    await adapter().putUserBan(ban(one.id))
    await adapter().putUserBan(ban(two.id))
    expect(await adapter().deleteUserBan(one.id)).toBe(true)
    expect(await adapter().deleteUserBan(one.id)).toBe(false)
    expect(await adapter().getUserBan(one.id)).toBeNull()
    expect(await adapter().getUserBan(two.id)).toEqual(ban(two.id))
  })

  check("deleteUser removes the user's ban", async () => {
    const [user] = await users({ email: `${newMarker()}@example.com`, name: null })
    await adapter().putUserBan({ userId: user.id, reason: "Fraud", expires: at(60), createdAt: at(0), bannedBy: null })
    await adapter().deleteUser(user.id)
    expect(await adapter().getUserBan(user.id)).toBeNull()
    expect(await adapter().deleteUserBan(user.id)).toBe(false)
  })
}
