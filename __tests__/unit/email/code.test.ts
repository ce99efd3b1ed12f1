/**
 * Issue #19: the one-time code's pieces on their own: settings and their start-up checks, drawing
 * (length, alphabet), reading what a person typed, the grouped display, the salted hash compared
 * in constant time, and the masked address of the confirm page.
 */
import { describe, expect, it } from "@jest/globals"
import { InvalidOption } from "../../../lib/errors.js"
import { DIGITS, LETTERS, codeMatches, codeSettings, displayCode, hashCode, newCode, readTypedCode } from "../../../lib/email-codes/code.js"
import { assertCodeOptions } from "../../../lib/email-codes/options.js"
import { maskAddress } from "../../../lib/providers/email/mask.js"
import Nodemailer from "../../../lib/providers/nodemailer.js"
import type { EmailProviderConfig } from "../../../lib/providers/types.js"

const provider = (options: Partial<EmailProviderConfig> = {}) => Nodemailer({ server: "smtp://127.0.0.1:1", ...options })

describe("settings", () => {
  it("6 digits for 10 minutes by default; letters are 8 long; length and maxAge as given; off with code: false", () => {
    expect(codeSettings(provider())).toEqual({ alphabet: DIGITS, length: 6, maxAge: 600 })
    expect(codeSettings(provider({ code: { format: "letters" } }))).toEqual({ alphabet: LETTERS, length: 8, maxAge: 600 })
    expect(codeSettings(provider({ code: { length: 9, maxAge: 120 } }))).toEqual({ alphabet: DIGITS, length: 9, maxAge: 120 })
    expect(codeSettings(provider({ code: false }))).toBeUndefined()
  })

  it("the letters have no look-alikes", () => {
    for (const confusable of ["0", "O", "1", "I", "L"]) expect(LETTERS).not.toContain(confusable)
    expect(new Set(LETTERS).size).toBe(LETTERS.length)
  })

  it.each([
    [{ confirm: "no" }, "confirm"],
    [{ code: true }, "code"],
    [{ code: { format: "hex" } }, "code.format"],
    [{ code: { length: 5 } }, "code.length"],
    [{ code: { length: 13 } }, "code.length"],
    [{ code: { length: 6.5 } }, "code.length"],
    [{ code: { maxAge: 0 } }, "code.maxAge"],
    [{ code: { maxAge: Infinity } }, "code.maxAge"],
    [{ code: { digits: 6 } }, "code.digits"],
  ])("%j is refused at start-up, naming the option", (options, path) => {
    expect(() => assertCodeOptions(provider(options as Partial<EmailProviderConfig>), 'providers[0] ("nodemailer")')).toThrow(InvalidOption)
    expect(() => assertCodeOptions(provider(options as Partial<EmailProviderConfig>), 'providers[0] ("nodemailer")')).toThrow(`providers[0] ("nodemailer").${path}`)
  })
})

describe("drawing and reading", () => {
  it("codes have the length and alphabet asked for, and differ", () => {
    const digits = Array.from({ length: 200 }, () => newCode({ alphabet: DIGITS, length: 6, maxAge: 600 }))
    for (const code of digits) expect(code).toMatch(/^\d{6}$/)
    expect(new Set(digits).size).toBeGreaterThan(190)
    for (let i = 0; i < 50; i++) for (const c of newCode({ alphabet: LETTERS, length: 8, maxAge: 600 })) expect(LETTERS).toContain(c)
  })

  it("typed codes: spaces, hyphens and lower case are fine; full-width digits fold; anything else is no code", () => {
    const digits = { alphabet: DIGITS, length: 6, maxAge: 600 }
    const letters = { alphabet: LETTERS, length: 8, maxAge: 600 }
    expect(readTypedCode(" 123 456 ", digits)).toBe("123456")
    expect(readTypedCode("123-456", digits)).toBe("123456")
    expect(readTypedCode("１２３４５６", digits)).toBe("123456")
    expect(readTypedCode("abcd-efgh", letters)).toBe("ABCDEFGH")
    for (const bad of [undefined, "", "12345", "1234567", "12345a", "x".repeat(100)]) expect(readTypedCode(bad, digits)).toBeUndefined()
    expect(readTypedCode("ABCDEFG0", letters)).toBeUndefined()
  })

  it("shown in groups of 3 or 4", () => {
    expect(displayCode("123456")).toBe("123 456")
    expect(displayCode("ABCDEFGH")).toBe("ABCD EFGH")
    expect(displayCode("123456789")).toBe("123 456 789")
    expect(displayCode("123456789012")).toBe("1234 5678 9012")
    expect(displayCode("1234567")).toBe("1234567")
  })
})

describe("hash and compare", () => {
  it("a salted hash: the same code under two salts hashes differently; only the code itself matches", () => {
    const hash = hashCode("123456", "salt-a")
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hash).not.toBe(hashCode("123456", "salt-b"))
    expect(hash).not.toContain("123456")
    expect(codeMatches("123456", "salt-a", hash)).toBe(true)
    expect(codeMatches("123457", "salt-a", hash)).toBe(false)
    expect(codeMatches("123456", "salt-b", hash)).toBe(false)
    expect(codeMatches(undefined, "salt-a", hashCode("", "salt-a"))).toBe(false)
  })
})

describe("the masked address", () => {
  it("keeps the first character and the domain", () => {
    expect(maskAddress("alice@example.com")).toBe("a…@example.com")
    expect(maskAddress("b@example.com")).toBe("b…@example.com")
    expect(maskAddress("no-at-sign")).toBe("…")
  })
})
