/**
 * Contract checks for the optional cookie-session methods (`putCookieSession`,
 * `listCookieSessions`, `deleteCookieSessions`, `addSessionRevocation`, `listSessionRevocations`),
 * which let processes sharing only the database share cookie-session revocation. Checked through
 * the adapter itself (a write, then the read that Gatehouse relies on). An adapter without them
 * leaves these checks out with `skip` and a reason.
 */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterCookieSession, AdapterSessionRevocation } from "../../lib/adapters.js"
import type { ContractContext } from "./fixtures.js"

const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000)

function cookieSession(userId: string, overrides: Partial<AdapterCookieSession> = {}): AdapterCookieSession {
  const now = Date.now()
  return { sid: randomUUID().replaceAll("-", ""), userId, createdAt: second(now), lastSeenAt: second(now), expires: second(now + 3_600_000), userAgent: "Contract/1.0", ip: "192.0.2.9", ...overrides }
}

function revocation(overrides: Partial<AdapterSessionRevocation> = {}): AdapterSessionRevocation {
  const now = Date.now()
  return { id: randomUUID(), kind: "session", key: randomUUID(), notBefore: null, createdAt: second(now), expires: second(now + 3_600_000), ...overrides }
}

export function cookieSessionChecks({ adapter, check }: ContractContext): void {
  check("putCookieSession records a cookie session and replaces it by sid; listCookieSessions returns the user's records only", async () => {
    const [alice, bob] = [randomUUID(), randomUUID()]
    const first = cookieSession(alice)
    const other = cookieSession(alice, { userAgent: null, ip: null })
    await adapter().putCookieSession(first)
    await adapter().putCookieSession(other)
    await adapter().putCookieSession(cookieSession(bob))
    const moved = { ...first, lastSeenAt: second(Date.now() + 60_000), expires: second(Date.now() + 7_200_000) }
    await adapter().putCookieSession(moved)
    const listed = (await adapter().listCookieSessions(alice)).sort((a, b) => a.sid.localeCompare(b.sid))
    expect(listed).toEqual([moved, other].sort((a, b) => a.sid.localeCompare(b.sid)))
    for (const record of listed) expect(record.expires).toBeInstanceOf(Date)
    expect(await adapter().listCookieSessions(randomUUID())).toEqual([])
  })

  check("one session recorded under several keys (its user, a provider session) is kept under each, with its owner", async () => {
    const [user, providerKey] = [randomUUID(), `idp:oidc:sid:${randomUUID()}`]
    const own = cookieSession(user)
    const bound = { ...own, userId: providerKey, owner: user, userAgent: null, ip: null }
    await adapter().putCookieSession(own)
    await adapter().putCookieSession(bound)
    expect(await adapter().listCookieSessions(user)).toEqual([own])
    expect(await adapter().listCookieSessions(providerKey)).toEqual([bound])
    await adapter().deleteCookieSessions(providerKey, [own.sid])
    expect(await adapter().listCookieSessions(user)).toEqual([own])
    expect(await adapter().listCookieSessions(providerKey)).toEqual([])
  })

  check("deleteCookieSessions removes the listed records of that user only", async () => {
    const [alice, bob] = [randomUUID(), randomUUID()]
    const [gone, kept] = [cookieSession(alice), cookieSession(alice)]
    const bobs = cookieSession(bob)
    for (const record of [gone, kept, bobs]) await adapter().putCookieSession(record)
    await adapter().deleteCookieSessions(alice, [gone.sid, bobs.sid, "unknown-sid-0000"])
    expect((await adapter().listCookieSessions(alice)).map((record) => record.sid)).toEqual([kept.sid])
    expect((await adapter().listCookieSessions(bob)).map((record) => record.sid)).toEqual([bobs.sid])
    await adapter().deleteCookieSessions(alice, [])
    expect(await adapter().listCookieSessions(alice)).toHaveLength(1)
  })

  check("listSessionRevocations returns live revocations: all, since a time, or by key; never expired ones", async () => {
    const now = Date.now()
    const older = revocation({ createdAt: second(now - 10_000) })
    const user = revocation({ kind: "user", notBefore: second(now - 5_000), createdAt: second(now) })
    const expired = revocation({ createdAt: second(now - 20_000), expires: second(now - 1_000) })
    for (const made of [older, user, expired]) await adapter().addSessionRevocation(made)
    const mine = (list: AdapterSessionRevocation[]) => list.filter((found) => [older.id, user.id, expired.id].includes(found.id)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    expect(mine(await adapter().listSessionRevocations({}))).toEqual([older, user])
    expect(mine(await adapter().listSessionRevocations({ since: second(now - 5_000) }))).toEqual([user])
    expect(mine(await adapter().listSessionRevocations({ since: older.createdAt }))).toEqual([older, user])
    expect(await adapter().listSessionRevocations({ keys: [user.key, expired.key, randomUUID()] })).toEqual([user])
    expect(await adapter().listSessionRevocations({ keys: [] })).toEqual([])
  })

  check('a revocation of kind "spare" (the session "sign out everywhere else" keeps) comes back as written', async () => {
    const now = Date.now()
    const spare = revocation({ kind: "spare", notBefore: second(now), createdAt: second(now) })
    await adapter().addSessionRevocation(spare)
    expect(await adapter().listSessionRevocations({ keys: [spare.key] })).toEqual([spare])
  })
}
