/**
 * Contract checks for Gatehouse's optional session methods (`listSessionsByUserId`,
 * `deleteSessionsByUserId`) and the session facts that adapters having them store. An adapter
 * without them (an Auth.js adapter) leaves these checks out with `skip` and a reason.
 */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import { newUser, type ContractContext } from "./fixtures.js"

export function sessionListingChecks({ adapter, db, check }: ContractContext): void {
  const soon = (hours = 1) => new Date(Math.floor(Date.now() / 1000) * 1000 + hours * 3_600_000)
  const second = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000)

  check("listSessionsByUserId returns the user's sessions with their facts, and no one else's", async () => {
    const [alice, bob] = [await adapter().createUser(newUser()), await adapter().createUser(newUser())]
    const createdAt = second(new Date())
    const facts = { createdAt, lastSeenAt: createdAt, userAgent: "Contract/1.0 (test)", ip: "192.0.2.7" }
    const tokens = [randomUUID(), randomUUID()]
    for (const sessionToken of tokens) await adapter().createSession({ sessionToken, userId: alice.id, expires: soon(), ...facts })
    await adapter().createSession({ sessionToken: randomUUID(), userId: bob.id, expires: soon() })
    const listed = await adapter().listSessionsByUserId(alice.id)
    expect(listed.map((session) => session.sessionToken).sort()).toEqual([...tokens].sort())
    for (const session of listed) {
      expect(session).toMatchObject({ userId: alice.id, userAgent: facts.userAgent, ip: facts.ip })
      expect(session.createdAt?.getTime()).toBe(createdAt.getTime())
      expect(session.lastSeenAt?.getTime()).toBe(createdAt.getTime())
      expect(session.expires).toBeInstanceOf(Date)
    }
    expect(await adapter().listSessionsByUserId(randomUUID())).toEqual([])
  })

  check("updateSession moves lastSeenAt with the expiry", async () => {
    const user = await adapter().createUser(newUser())
    const sessionToken = randomUUID()
    await adapter().createSession({ sessionToken, userId: user.id, expires: soon(), createdAt: second(new Date()), lastSeenAt: second(new Date()), userAgent: null, ip: null })
    const later = second(new Date(Date.now() + 60_000))
    // One instant for the new expiry: worked out twice, it could straddle a second.
    const expires = soon(2)
    await adapter().updateSession({ sessionToken, expires, lastSeenAt: later })
    const [listed] = await adapter().listSessionsByUserId(user.id)
    expect(listed?.lastSeenAt?.getTime()).toBe(later.getTime())
    expect(listed?.expires.getTime()).toBe(expires.getTime())
  })

  check("deleteSessionsByUserId deletes every session of the user but `except`, returns how many, and leaves other users' sessions", async () => {
    const [alice, bob] = [await adapter().createUser(newUser()), await adapter().createUser(newUser())]
    const keep = randomUUID()
    const others = [randomUUID(), randomUUID()]
    for (const sessionToken of [keep, ...others]) await adapter().createSession({ sessionToken, userId: alice.id, expires: soon() })
    const bobs = randomUUID()
    await adapter().createSession({ sessionToken: bobs, userId: bob.id, expires: soon() })
    expect(await adapter().deleteSessionsByUserId(alice.id, { except: keep })).toBe(2)
    for (const token of others) expect(await db.session(token)).toBeNull()
    expect(await db.session(keep)).toMatchObject({ userId: alice.id })
    expect(await db.session(bobs)).toMatchObject({ userId: bob.id })
    expect(await adapter().deleteSessionsByUserId(alice.id)).toBe(1)
    expect(await db.session(keep)).toBeNull()
    expect(await adapter().deleteSessionsByUserId(alice.id)).toBe(0)
  })
}
