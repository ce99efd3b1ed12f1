/**
 * Contract checks for the Gatehouse extensions that taking an address back from an unproven user
 * needs (issue #12): listing a user's accounts and removing a passkey.
 */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterAuthenticator } from "../../lib/adapters.js"
import { newAccount, newUser, type ContractContext } from "./fixtures.js"

export function linkingChecks({ adapter, db, check }: ContractContext): void {
  check("listAccountsByUserId lists exactly the user's accounts, and none for a user without any", async () => {
    const user = await adapter().createUser(newUser())
    const other = await adapter().createUser(newUser())
    const a = newAccount(user.id, { provider: "provider-a" })
    const b = newAccount(user.id, { provider: "provider-b", type: "oidc" })
    await adapter().linkAccount(a)
    await adapter().linkAccount(b)
    await adapter().linkAccount(newAccount(other.id))
    const listed = await adapter().listAccountsByUserId(user.id)
    expect(listed.map((account) => `${account.provider}/${account.providerAccountId}`).sort()).toEqual([`provider-a/${a.providerAccountId}`, `provider-b/${b.providerAccountId}`].sort())
    for (const account of listed) expect(account.userId).toBe(user.id)
    expect(await adapter().listAccountsByUserId((await adapter().createUser(newUser())).id)).toEqual([])
  })

  check("deleteUser also removes the sign-in tokens still out for the user's address, and only those", async () => {
    const user = await adapter().createUser(newUser())
    const other = await adapter().createUser(newUser())
    const expires = new Date(Date.now() + 60_000)
    await adapter().createVerificationToken({ identifier: user.email, token: `t-${randomUUID()}`, expires })
    const kept = { identifier: other.email, token: `t-${randomUUID()}`, expires }
    await adapter().createVerificationToken(kept)
    const mine = { identifier: user.email, token: `t-${randomUUID()}`, expires }
    await adapter().createVerificationToken(mine)
    await adapter().deleteUser(user.id)
    expect(await adapter().useVerificationToken({ identifier: mine.identifier, token: mine.token })).toBeNull()
    expect(await adapter().useVerificationToken({ identifier: kept.identifier, token: kept.token })).toMatchObject({ identifier: other.email })
  })

  check("deleteAuthenticator removes that passkey only, returns it, and null when there was none", async () => {
    const user = await adapter().createUser(newUser())
    const passkey = (id: string): AdapterAuthenticator => ({
      credentialID: id,
      userId: user.id,
      providerAccountId: id,
      credentialPublicKey: Buffer.from(`key-${id}`).toString("base64"),
      counter: 0,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: "internal",
    })
    const [kept, removed] = [passkey(randomUUID()), passkey(randomUUID())]
    await adapter().createAuthenticator(kept)
    await adapter().createAuthenticator(removed)
    expect(await adapter().deleteAuthenticator(removed.credentialID)).toMatchObject({ credentialID: removed.credentialID, userId: user.id })
    expect(await db.authenticator(removed.credentialID)).toBeNull()
    expect(await db.authenticator(kept.credentialID)).toMatchObject({ userId: user.id })
    expect(await adapter().deleteAuthenticator(removed.credentialID)).toBeNull()
  })
}
