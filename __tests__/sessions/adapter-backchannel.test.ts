/**
 * Back-channel logout (issue #17) on cookie sessions shared through the adapter (no store, issue
 * #14): the sign-in records the session under the provider's sid and sub as well as under its
 * user (one session, several keys), and a logout token handled by another instance ends it there
 * and on the first, and takes it off the user's list. Two configurations (two processes) on one
 * SQL adapter (SQLite and PostgreSQL).
 */
import { afterAll, describe, expect, it } from "@jest/globals"
import { UnsecuredJWT } from "jose"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { endProviderSessions, recordProviderSession } from "../../lib/federation/provider-sessions.js"
import { cookieSessionRevoked } from "../../lib/devices/check.js"
import { newSessionId } from "../../lib/devices/ids.js"
import { recordCookieSession } from "../../lib/devices/registry.js"
import { testConfig } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix } from "../helpers/databases.js"

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.splice(0)) await close()
})

describe.each(["sqlite", "postgres"] as const)("back-channel logout, cookie sessions, one %s database, no store", (name) => {
  it("a logout token handled on B ends the session on A too, and it leaves the user's list", async () => {
    const prefix = uniquePrefix(`bcl_${name.slice(0, 2)}`)
    const adapter: SqlAdapterInstance = await openTestDatabase(name, prefix)
    closers.push(() => closeTestDatabase(adapter, prefix))
    const [A, B] = [resolveConfig(testConfig({ adapter, session: { strategy: "cookie" } })), resolveConfig(testConfig({ adapter, session: { strategy: "cookie" } }))]
    const sid = newSessionId()
    const token = { sub: "user-1", sid, iat: Math.floor(Date.now() / 1000) }
    const expires = Date.now() + 3_600_000
    await recordCookieSession(A, token, expires, { userAgent: "Browser/1.0", ip: "192.0.2.1" })
    const idToken = new UnsecuredJWT({ sid: "idp-session-1", sub: "idp-user-1" }).encode()
    await recordProviderSession(A, { type: "oidc", provider: "idp", providerAccountId: "idp-user-1", id_token: idToken }, sid, "user-1", expires)
    // The session is listed under its user, and found under the provider's sid and sub.
    expect((await A.store.listSessions!("user-1")).map((record) => record.sid)).toEqual([sid])
    expect(await A.store.listSessions!("idp:idp:sid:idp-session-1")).toEqual([expect.objectContaining({ sid, user: "user-1" })])
    expect(await cookieSessionRevoked(A, token)).toBe(false)

    expect(await endProviderSessions(B, "idp", { sid: "idp-session-1" })).toBe(1)
    expect(await cookieSessionRevoked(B, token)).toBe(true)
    expect(await A.store.listSessions!("user-1")).toEqual([])
    await new Promise((resume) => setTimeout(resume, 1050))
    expect(await cookieSessionRevoked(A, token)).toBe(true)
  })
})
