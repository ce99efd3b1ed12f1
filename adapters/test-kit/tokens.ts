/** Contract checks for verification tokens and WebAuthn authenticators. */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterAuthenticator } from "../../lib/adapters.js"
import { newUser, type ContractContext } from "./fixtures.js"

export function tokenChecks({ adapter, db, check }: ContractContext): void {
  const token = () => ({ identifier: `user-${randomUUID()}@example.com`, token: randomUUID().replace(/-/g, ""), expires: new Date(Math.floor(Date.now() / 1000) * 1000 + 600_000) })

  check("useVerificationToken returns the token once, then null", async () => {
    const issued = token()
    await adapter().createVerificationToken(issued)
    expect(await db.verificationToken(issued.identifier, issued.token)).not.toBeNull()
    const used = await adapter().useVerificationToken({ identifier: issued.identifier, token: issued.token })
    expect(used).toMatchObject({ identifier: issued.identifier, token: issued.token })
    expect(used?.expires.getTime()).toBe(issued.expires.getTime())
    expect(await adapter().useVerificationToken({ identifier: issued.identifier, token: issued.token })).toBeNull()
    expect(await db.verificationToken(issued.identifier, issued.token)).toBeNull()
  })

  check("useVerificationToken needs identifier and token to match together", async () => {
    const issued = token()
    await adapter().createVerificationToken(issued)
    expect(await adapter().useVerificationToken({ identifier: `other-${issued.identifier}`, token: issued.token })).toBeNull()
    expect(await adapter().useVerificationToken({ identifier: issued.identifier, token: `${issued.token}0` })).toBeNull()
    expect(await adapter().useVerificationToken({ identifier: issued.identifier, token: issued.token.toUpperCase() })).toBeNull()
    expect(await db.verificationToken(issued.identifier, issued.token)).not.toBeNull()
  })

  check("of concurrent useVerificationToken calls, exactly one gets the token", async () => {
    const issued = token()
    await adapter().createVerificationToken(issued)
    const results = await Promise.all(Array.from({ length: 5 }, () => adapter().useVerificationToken({ identifier: issued.identifier, token: issued.token })))
    expect(results.filter((result) => result !== null)).toHaveLength(1)
  })

  // Auth.js's fields (an adapter that keeps passkey details adds them as null: passkey-details.ts checks those).
  const authFields = (found: AdapterAuthenticator | null | undefined) => {
    if (!found) return found
    const { name, createdAt, lastUsedAt, ...rest } = found
    expect([name ?? null, createdAt ?? null, lastUsedAt ?? null]).toEqual([null, null, null])
    return rest
  }

  const authenticatorFor = (userId: string): AdapterAuthenticator => {
    const credentialID = randomUUID()
    return {
      credentialID,
      userId,
      providerAccountId: credentialID,
      credentialPublicKey: "pQECAyYgASFYIGQ",
      counter: 5,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: "internal,hybrid",
    }
  }

  check("createAuthenticator stores every field; getAuthenticator and listAuthenticatorsByUserId find it", async () => {
    const user = await adapter().createUser(newUser())
    const first = authenticatorFor(user.id)
    const second = { ...authenticatorFor(user.id), credentialBackedUp: false, credentialDeviceType: "singleDevice", transports: null }
    await adapter().createAuthenticator(first)
    await adapter().createAuthenticator(second)
    expect(await db.authenticator(first.credentialID)).toMatchObject({ userId: user.id, counter: 5 })
    expect(authFields(await adapter().getAuthenticator(first.credentialID))).toEqual(first)
    const listed = await adapter().listAuthenticatorsByUserId(user.id)
    expect(listed.map((a) => a.credentialID).sort()).toEqual([first.credentialID, second.credentialID].sort())
    expect(authFields(listed.find((a) => a.credentialID === second.credentialID))).toEqual(second)
    expect(await adapter().getAuthenticator(randomUUID())).toBeNull()
  })

  check("updateAuthenticatorCounter stores the new counter", async () => {
    const user = await adapter().createUser(newUser())
    const authenticator = authenticatorFor(user.id)
    await adapter().createAuthenticator(authenticator)
    const updated = await adapter().updateAuthenticatorCounter(authenticator.credentialID, 6)
    expect(updated.counter).toBe(6)
    expect((await db.authenticator(authenticator.credentialID))?.counter).toBe(6)
  })

  check("updateAuthenticatorCounter never lowers the counter (a slow request cannot undo a newer one)", async () => {
    const user = await adapter().createUser(newUser())
    const authenticator = authenticatorFor(user.id)
    await adapter().createAuthenticator(authenticator)
    await adapter().updateAuthenticatorCounter(authenticator.credentialID, 8)
    const stale = await adapter().updateAuthenticatorCounter(authenticator.credentialID, 7)
    expect(stale.counter).toBe(8)
    expect((await db.authenticator(authenticator.credentialID))?.counter).toBe(8)
  })
}
