/**
 * Contract checks for passkey details (Gatehouse extension `updateAuthenticator`, issue #15): a
 * name, when the passkey was registered, when it last signed in. Adapters that have
 * `updateAuthenticator` store the three fields given to `createAuthenticator` and return them.
 */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterAuthenticator } from "../../lib/adapters.js"
import { newUser, type ContractContext } from "./fixtures.js"

/** A whole second (every engine keeps milliseconds; some not more). */
// One instant for the whole kit: two calls of at() must give the same time even across a second boundary.
const BASE_SECONDS = Math.floor(Date.now() / 1000)
const at = (offsetSeconds = 0) => new Date((BASE_SECONDS + offsetSeconds) * 1000)

export function passkeyDetailChecks({ adapter, db, check }: ContractContext): void {
  const passkeyFor = (userId: string, details: Partial<AdapterAuthenticator> = {}): AdapterAuthenticator => {
    const credentialID = randomUUID()
    return {
      credentialID,
      userId,
      providerAccountId: credentialID,
      credentialPublicKey: "pQECAyYgASFYIGQ",
      counter: 3,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: "internal",
      ...details,
    }
  }

  check("createAuthenticator stores a passkey's name, createdAt and lastUsedAt; getAuthenticator and listAuthenticatorsByUserId return them", async () => {
    const user = await adapter().createUser(newUser())
    // Not used yet: lastUsedAt is left out (an SQL adapter cannot tell null from unset, and reads back what holds a value).
    const passkey = passkeyFor(user.id, { name: "Chrome on Linux", createdAt: at(-60) })
    await adapter().createAuthenticator(passkey)
    const stored = await db.authenticator(passkey.credentialID)
    expect(stored).toMatchObject({ name: "Chrome on Linux" })
    expect(stored?.lastUsedAt ?? null).toBeNull()
    expect(await adapter().getAuthenticator(passkey.credentialID)).toEqual(passkey)
    expect(await adapter().listAuthenticatorsByUserId(user.id)).toEqual([passkey])
  })

  check("a passkey created without details reads back with none (absent or null)", async () => {
    const user = await adapter().createUser(newUser())
    const passkey = passkeyFor(user.id)
    await adapter().createAuthenticator(passkey)
    const found = await adapter().getAuthenticator(passkey.credentialID)
    expect(found).toMatchObject(passkey)
    expect([found?.name ?? null, found?.createdAt ?? null, found?.lastUsedAt ?? null]).toEqual([null, null, null])
  })

  check("updateAuthenticator renames a passkey and keeps every other field", async () => {
    const user = await adapter().createUser(newUser())
    const passkey = passkeyFor(user.id, { name: "Chrome on Linux", createdAt: at(-60), lastUsedAt: at(-30) })
    await adapter().createAuthenticator(passkey)
    const renamed = await adapter().updateAuthenticator(passkey.credentialID, { name: "Work laptop ✓" })
    expect(renamed).toEqual({ ...passkey, name: "Work laptop ✓" })
    expect(await adapter().getAuthenticator(passkey.credentialID)).toEqual({ ...passkey, name: "Work laptop ✓" })
    expect((await db.authenticator(passkey.credentialID))?.name).toBe("Work laptop ✓")
  })

  check("updateAuthenticator records the last use with the counter in one call, and never lowers the counter", async () => {
    const user = await adapter().createUser(newUser())
    const passkey = passkeyFor(user.id, { name: "Phone", createdAt: at(-60), lastUsedAt: null })
    await adapter().createAuthenticator(passkey)
    const first = await adapter().updateAuthenticator(passkey.credentialID, { counter: 9, lastUsedAt: at(-10) })
    expect(first).toMatchObject({ counter: 9, name: "Phone" })
    expect(first?.lastUsedAt?.getTime()).toBe(at(-10).getTime())
    expect(await db.authenticator(passkey.credentialID)).toMatchObject({ counter: 9, lastUsedAt: at(-10) })
    // A slower request with an older counter: the use is recorded, the counter stays.
    const stale = await adapter().updateAuthenticator(passkey.credentialID, { counter: 7, lastUsedAt: at() })
    expect(stale?.counter).toBe(9)
    expect(stale?.lastUsedAt?.getTime()).toBe(at().getTime())
    expect((await db.authenticator(passkey.credentialID))?.counter).toBe(9)
    expect((await adapter().getAuthenticator(passkey.credentialID))?.createdAt?.getTime()).toBe(passkey.createdAt!.getTime())
  })

  check("updateAuthenticator returns null for an unknown passkey and creates none", async () => {
    const credentialID = randomUUID()
    expect(await adapter().updateAuthenticator(credentialID, { name: "Ghost", counter: 1, lastUsedAt: at() })).toBeNull()
    expect(await adapter().getAuthenticator(credentialID)).toBeNull()
    expect(await db.authenticator(credentialID)).toBeNull()
  })
}
