/** Contract checks for database sessions. */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import { newUser, type ContractContext } from "./fixtures.js"

export function sessionChecks({ adapter, db, check }: ContractContext): void {
  const soon = () => new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000)

  check("createSession stores the session; getSessionAndUser returns it with its user", async () => {
    const user = await adapter().createUser(newUser())
    const sessionToken = randomUUID()
    const expires = soon()
    await adapter().createSession({ sessionToken, userId: user.id, expires })
    expect(await db.session(sessionToken)).toMatchObject({ userId: user.id })
    const found = await adapter().getSessionAndUser(sessionToken)
    expect(found?.session).toMatchObject({ sessionToken, userId: user.id })
    expect(found?.session.expires).toBeInstanceOf(Date)
    expect(found?.session.expires.getTime()).toBe(expires.getTime())
    expect(found?.user).toMatchObject({ id: user.id, email: user.email })
  })

  check("getSessionAndUser returns null for an unknown token", async () => {
    expect(await adapter().getSessionAndUser(randomUUID())).toBeNull()
  })

  check("getSessionAndUser compares the token exactly: another case or a trailing space finds nothing", async () => {
    const user = await adapter().createUser(newUser())
    const sessionToken = `aBc${randomUUID()}`
    await adapter().createSession({ sessionToken, userId: user.id, expires: soon() })
    expect(await adapter().getSessionAndUser(sessionToken.toUpperCase())).toBeNull()
    expect(await adapter().getSessionAndUser(sessionToken.toLowerCase())).toBeNull()
    expect(await adapter().getSessionAndUser(`${sessionToken} `)).toBeNull()
    expect(await adapter().getSessionAndUser(sessionToken.slice(0, -1))).toBeNull()
  })

  check("updateSession moves the expiry", async () => {
    const user = await adapter().createUser(newUser())
    const sessionToken = randomUUID()
    await adapter().createSession({ sessionToken, userId: user.id, expires: soon() })
    const later = new Date(soon().getTime() + 86_400_000)
    const updated = await adapter().updateSession({ sessionToken, expires: later })
    expect(updated?.expires.getTime()).toBe(later.getTime())
    expect((await db.session(sessionToken))?.expires.getTime()).toBe(later.getTime())
  })

  check("deleteSession removes the session and returns it", async () => {
    const user = await adapter().createUser(newUser())
    const sessionToken = randomUUID()
    await adapter().createSession({ sessionToken, userId: user.id, expires: soon() })
    const deleted = await adapter().deleteSession(sessionToken)
    expect(deleted).toMatchObject({ sessionToken, userId: user.id })
    expect(await db.session(sessionToken)).toBeNull()
    expect(await adapter().getSessionAndUser(sessionToken)).toBeNull()
  })

  check("one session per token", async () => {
    const user = await adapter().createUser(newUser())
    const sessionToken = randomUUID()
    await adapter().createSession({ sessionToken, userId: user.id, expires: soon() })
    await expect(adapter().createSession({ sessionToken, userId: user.id, expires: soon() })).rejects.toBeTruthy()
  })
}
