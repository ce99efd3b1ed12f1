/** Contract checks for users and accounts. */
import { randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import { newAccount, newUser, type ContractContext } from "./fixtures.js"

export function userChecks({ adapter, db, check }: ContractContext): void {
  check("createUser stores the user and returns it with an id that getUser finds", async () => {
    const created = await adapter().createUser(newUser({ name: "Ada", image: "https://img.example/ada.png" }))
    expect(typeof created.id).toBe("string")
    expect(await db.user(created.id)).toMatchObject({ id: created.id, email: created.email, name: "Ada" })
    expect(await adapter().getUser(created.id)).toEqual({ ...created })
  })

  check("getUser and getUserByEmail return null for what does not exist", async () => {
    expect(await adapter().getUser(randomUUID())).toBeNull()
    expect(await adapter().getUserByEmail(`nobody-${randomUUID()}@example.com`)).toBeNull()
  })

  check("getUserByEmail finds the user by email", async () => {
    const created = await adapter().createUser(newUser())
    expect(await adapter().getUserByEmail(created.email)).toMatchObject({ id: created.id, email: created.email })
  })

  check("emailVerified comes back as a Date (or null), to the millisecond", async () => {
    const verified = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))
    const created = await adapter().createUser(newUser({ emailVerified: verified }))
    const read = await adapter().getUser(created.id)
    expect(read?.emailVerified).toBeInstanceOf(Date)
    expect(read?.emailVerified?.getTime()).toBe(verified.getTime())
    const plain = await adapter().createUser(newUser())
    expect((await adapter().getUser(plain.id))?.emailVerified).toBeNull()
  })

  check("updateUser changes the given fields only and returns the updated user", async () => {
    const created = await adapter().createUser(newUser({ name: "Before", image: "https://img.example/1.png" }))
    const verified = new Date(Date.UTC(2026, 5, 1))
    const updated = await adapter().updateUser({ id: created.id, name: "After", emailVerified: verified })
    expect(updated).toMatchObject({ id: created.id, name: "After", image: "https://img.example/1.png", email: created.email })
    expect(updated.emailVerified?.getTime()).toBe(verified.getTime())
    expect(await db.user(created.id)).toMatchObject({ name: "After" })
  })

  check("one user per email: a second user with the same email is refused", async () => {
    const first = await adapter().createUser(newUser())
    await expect(adapter().createUser(newUser({ email: first.email }))).rejects.toBeTruthy()
  })

  check("two concurrent createUser calls for the same new email create one user", async () => {
    const email = `race-${randomUUID()}@example.com`
    const results = await Promise.allSettled([1, 2, 3].map(() => adapter().createUser(newUser({ email }))))
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1)
    expect(await adapter().getUserByEmail(email)).not.toBeNull()
  })

  check("users without an email do not collide", async () => {
    const a = await adapter().createUser(newUser({ email: "" }))
    const b = await adapter().createUser(newUser({ email: "" }))
    expect(a.id).not.toBe(b.id)
    expect(await adapter().getUserByEmail("")).toBeNull()
  })

  check("linkAccount stores every token field; getUserByAccount and getAccount find it", async () => {
    const user = await adapter().createUser(newUser())
    const account = newAccount(user.id)
    await adapter().linkAccount(account)
    expect(await db.account(account.provider, account.providerAccountId)).toMatchObject({ userId: user.id, access_token: account.access_token })
    expect(await adapter().getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })).toMatchObject({ id: user.id })
    expect(await adapter().getAccount(account.providerAccountId, account.provider)).toEqual(account)
  })

  check("getUserByAccount matches on provider and providerAccountId together", async () => {
    const user = await adapter().createUser(newUser())
    const account = newAccount(user.id, { provider: "provider-a" })
    await adapter().linkAccount(account)
    expect(await adapter().getUserByAccount({ provider: "provider-b", providerAccountId: account.providerAccountId })).toBeNull()
    expect(await adapter().getUserByAccount({ provider: "provider-a", providerAccountId: randomUUID() })).toBeNull()
  })

  check("one account per provider and providerAccountId", async () => {
    const a = await adapter().createUser(newUser())
    const b = await adapter().createUser(newUser())
    const account = newAccount(a.id)
    await adapter().linkAccount(account)
    await expect(adapter().linkAccount({ ...account, userId: b.id })).rejects.toBeTruthy()
    expect(await adapter().getUserByAccount(account)).toMatchObject({ id: a.id })
  })

  check("unlinkAccount removes the account", async () => {
    const user = await adapter().createUser(newUser())
    const account = newAccount(user.id)
    await adapter().linkAccount(account)
    await adapter().unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    expect(await db.account(account.provider, account.providerAccountId)).toBeNull()
    expect(await adapter().getUserByAccount(account)).toBeNull()
  })

  check("deleteUser removes the user with its accounts, sessions and authenticators", async () => {
    const user = await adapter().createUser(newUser())
    const account = newAccount(user.id)
    await adapter().linkAccount(account)
    const sessionToken = randomUUID()
    await adapter().createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 60_000) })
    const credentialID = randomUUID()
    await adapter().createAuthenticator({
      credentialID,
      userId: user.id,
      providerAccountId: credentialID,
      credentialPublicKey: "cHVibGljLWtleQ",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal",
    })
    await adapter().deleteUser(user.id)
    expect(await db.user(user.id)).toBeNull()
    expect(await db.account(account.provider, account.providerAccountId)).toBeNull()
    expect(await db.session(sessionToken)).toBeNull()
    expect(await db.authenticator(credentialID)).toBeNull()
  })

  check("transaction: when linking the account fails, the user is not created either", async () => {
    const transaction = adapter().transaction
    if (!transaction) throw new Error("the adapter has no transaction(); leave this check out with a reason if it never will")
    const owner = await adapter().createUser(newUser())
    const taken = newAccount(owner.id)
    await adapter().linkAccount(taken)
    const draft = newUser()
    await expect(
      transaction.call(adapter(), async (tx) => {
        const created = await tx.createUser!(draft)
        await tx.linkAccount!({ ...taken, userId: created.id })
      }),
    ).rejects.toBeTruthy()
    expect(await adapter().getUserByEmail(draft.email)).toBeNull()
  })
}
