/**
 * The password hash format (issue #18): scrypt at OWASP's parameters by default, the string names
 * its parameters and salt, an older hash still verifies and is flagged for upgrade, and a stored
 * string asking for absurd parameters (a memory bomb) or not ours verifies as false.
 */
import { describe, expect, it, jest } from "@jest/globals"
import { hashPassword, needsRehash, OWASP_SCRYPT, parseHash, verifyPassword } from "../../lib/password/hash.js"

jest.setTimeout(60_000)

describe("scrypt password hashes", () => {
  it("default: ln=17, r=8, p=1 in the string, a fresh salt each time, and the right password verifies", async () => {
    const first = await hashPassword("a long enough passphrase")
    const second = await hashPassword("a long enough passphrase")
    expect(first).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(first).not.toBe(second)
    expect(await verifyPassword("a long enough passphrase", first)).toBe(true)
    expect(await verifyPassword("a long enough passphrasE", first)).toBe(false)
    expect(needsRehash(first)).toBe(false)
  })

  it("a hash under older parameters verifies and needs a rehash", async () => {
    const old = await hashPassword("older parameters here", { ln: 12, r: 8, p: 1 })
    expect(parseHash(old)?.params).toEqual({ ln: 12, r: 8, p: 1 })
    expect(await verifyPassword("older parameters here", old)).toBe(true)
    expect(needsRehash(old, OWASP_SCRYPT)).toBe(true)
  })

  it("strings that are not ours, or ask for parameters out of bounds, are no match (and never run)", async () => {
    const salt = "A".repeat(22)
    const key = "B".repeat(43)
    for (const stored of ["", "plaintext", `$scrypt$ln=30,r=8,p=1$${salt}$${key}`, `$scrypt$ln=17,r=99,p=1$${salt}$${key}`, `$argon2id$v=19$m=65536,t=3,p=4$${salt}$${key}`]) {
      expect(parseHash(stored)).toBeNull()
      expect(await verifyPassword("anything at all", stored)).toBe(false)
      expect(needsRehash(stored)).toBe(true)
    }
  })
})
