/**
 * Contract checks for the two-factor methods (issue #16): a user not enrolled has no record; the
 * record reads back exactly (the secret is opaque to the adapter); recovery codes are single use,
 * also under concurrent calls (exactly one "accepted"); replacing them forgets the old ones;
 * turning it off or deleting the user removes everything.
 */
import { expect } from "@jest/globals"
import { newUser, type ContractContext } from "./fixtures.js"

const hashes = (label: string) => Array.from({ length: 10 }, (_, i) => `${label}-hash-${i}`.padEnd(64, "0"))

export function twoFactorChecks({ adapter, check }: ContractContext): void {
  check("getTwoFactor is null for a user not enrolled; enableTwoFactor stores the record and the codes", async () => {
    const user = await adapter().createUser(newUser())
    expect(await adapter().getTwoFactor(user.id)).toBeNull()
    const enabledAt = new Date(Math.floor(Date.now() / 1000) * 1000)
    await adapter().enableTwoFactor({ userId: user.id, secret: "sealed.secret.value.of.jwe", enabledAt }, hashes("a"))
    expect(await adapter().getTwoFactor(user.id)).toEqual({ userId: user.id, secret: "sealed.secret.value.of.jwe", enabledAt })
    expect(await adapter().countRecoveryCodes(user.id)).toBe(10)
    const other = await adapter().createUser(newUser())
    expect(await adapter().getTwoFactor(other.id)).toBeNull()
    expect(await adapter().countRecoveryCodes(other.id)).toBe(0)
  })

  check("useRecoveryCode: accepted once, then alreadyUsed; another user's or an unknown hash is unknown", async () => {
    const user = await adapter().createUser(newUser())
    const other = await adapter().createUser(newUser())
    const codes = hashes("b")
    await adapter().enableTwoFactor({ userId: user.id, secret: "s", enabledAt: new Date() }, codes)
    expect(await adapter().useRecoveryCode(other.id, codes[0] as string)).toBe("unknown")
    expect(await adapter().useRecoveryCode(user.id, codes[0] as string)).toBe("accepted")
    expect(await adapter().useRecoveryCode(user.id, codes[0] as string)).toBe("alreadyUsed")
    expect(await adapter().useRecoveryCode(user.id, "not-a-code")).toBe("unknown")
    expect(await adapter().countRecoveryCodes(user.id)).toBe(9)
  })

  check("useRecoveryCode under concurrent calls: exactly one is accepted", async () => {
    const user = await adapter().createUser(newUser())
    const codes = hashes("c")
    await adapter().enableTwoFactor({ userId: user.id, secret: "s", enabledAt: new Date() }, codes)
    const results = await Promise.all(Array.from({ length: 5 }, () => adapter().useRecoveryCode(user.id, codes[1] as string)))
    expect(results.filter((result) => result === "accepted")).toHaveLength(1)
  })

  check("replaceRecoveryCodes forgets the old codes; disableTwoFactor and deleteUser remove everything", async () => {
    const user = await adapter().createUser(newUser())
    const old = hashes("d")
    await adapter().enableTwoFactor({ userId: user.id, secret: "s", enabledAt: new Date() }, old)
    const fresh = hashes("e")
    await adapter().replaceRecoveryCodes(user.id, fresh)
    expect(await adapter().useRecoveryCode(user.id, old[0] as string)).toBe("unknown")
    expect(await adapter().useRecoveryCode(user.id, fresh[0] as string)).toBe("accepted")
    await adapter().disableTwoFactor(user.id)
    expect(await adapter().getTwoFactor(user.id)).toBeNull()
    expect(await adapter().countRecoveryCodes(user.id)).toBe(0)

    const leaving = await adapter().createUser(newUser())
    await adapter().enableTwoFactor({ userId: leaving.id, secret: "s", enabledAt: new Date() }, hashes("f"))
    await adapter().deleteUser(leaving.id)
    expect(await adapter().getTwoFactor(leaving.id)).toBeNull()
    expect(await adapter().countRecoveryCodes(leaving.id)).toBe(0)
  })
}
