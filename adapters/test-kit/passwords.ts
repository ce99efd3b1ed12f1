/**
 * Contract checks for the password methods (issue #18, password accounts): a user without a
 * password has none (null), a stored hash reads back exactly, a new one replaces it, and deleting
 * the user removes it.
 */
import { expect } from "@jest/globals"
import { newUser, type ContractContext } from "./fixtures.js"

export function passwordChecks({ adapter, check }: ContractContext): void {
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
}
