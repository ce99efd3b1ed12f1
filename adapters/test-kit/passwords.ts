/**
 * Contract checks for the password methods (issue #18, password accounts): a user without a
 * password has none (null), a stored hash reads back exactly, a new one replaces it, and deleting
 * the user removes it. `deleteVerificationTokens` removes every token of one identifier (a user's
 * outstanding reset links) and no other.
 */
import { expect } from "@jest/globals"
import { newUser, type ContractContext } from "./fixtures.js"

export function passwordChecks({ adapter, db, check }: ContractContext): void {
  check("getPasswordHash is null for a user without one; setPasswordHash stores it, replaces it, and deleteUser removes it", async () => {
    const user = await adapter().createUser(newUser())
    expect(await adapter().getPasswordHash(user.id)).toBeNull()
    await adapter().setPasswordHash(user.id, "$scrypt$ln=17,r=8,p=1$first$hash")
    expect(await adapter().getPasswordHash(user.id)).toBe("$scrypt$ln=17,r=8,p=1$first$hash")
    await adapter().setPasswordHash(user.id, "$scrypt$ln=17,r=8,p=1$second$hash")
    expect(await adapter().getPasswordHash(user.id)).toBe("$scrypt$ln=17,r=8,p=1$second$hash")
    const other = await adapter().createUser(newUser())
    expect(await adapter().getPasswordHash(other.id)).toBeNull()
    await adapter().deleteUser(user.id)
    expect(await adapter().getPasswordHash(user.id)).toBeNull()
  })

  check("deleteVerificationTokens removes every token of the identifier, and only those", async () => {
    const user = await adapter().createUser(newUser())
    const mine = `password-reset:${user.id}`
    const other = `password-reset:${user.id}-other`
    const expires = new Date(Date.now() + 3_600_000)
    for (const token of ["first", "second", "third"]) await adapter().createVerificationToken({ identifier: mine, token, expires })
    await adapter().createVerificationToken({ identifier: other, token: "first", expires })
    await adapter().createVerificationToken({ identifier: user.email, token: "sign-in", expires })
    expect(await adapter().deleteVerificationTokens(mine)).toBe(3)
    for (const token of ["first", "second", "third"]) expect(await db.verificationToken(mine, token)).toBeNull()
    expect(await db.verificationToken(other, "first")).not.toBeNull()
    expect(await db.verificationToken(user.email, "sign-in")).not.toBeNull()
    expect(await adapter().useVerificationToken({ identifier: mine, token: "second" })).toBeNull()
    expect(await adapter().deleteVerificationTokens(mine)).toBe(0)
  })
}
