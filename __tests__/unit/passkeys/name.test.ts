/** Passkey names (issue #15): the default from the registering browser, and the rule for names people give. */
import { describe, expect, it } from "@jest/globals"
import { de } from "../../../lib/account/texts/de.js"
import { en } from "../../../lib/account/texts/en.js"
import { ja } from "../../../lib/account/texts/ja.js"
import { defaultPasskeyName, validPasskeyName } from "../../../lib/passkeys/name.js"

const UA = {
  chromeLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  edgeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
  safariIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  firefoxMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0",
}

describe("defaultPasskeyName", () => {
  it("names the browser and the system, telling Edge from Chrome and iOS from macOS, in the catalog's words", () => {
    expect(defaultPasskeyName(UA.chromeLinux, en)).toBe("Chrome on Linux")
    expect(defaultPasskeyName(UA.edgeWindows, en)).toBe("Edge on Windows")
    expect(defaultPasskeyName(UA.safariIphone, en)).toBe("Safari on iOS")
    expect(defaultPasskeyName(UA.firefoxMac, de)).toBe("Firefox unter macOS")
    expect(defaultPasskeyName(UA.chromeLinux, ja)).toBe("Linux の Chrome")
  })

  it("one of the two when only one is recognised; no name when neither is (or no user agent)", () => {
    expect(defaultPasskeyName("SomeBot/1.0 (Linux)", en)).toBe("Linux")
    expect(defaultPasskeyName("Firefox/133.0", en)).toBe("Firefox")
    expect(defaultPasskeyName("curl/8.5.0", en)).toBeNull()
    expect(defaultPasskeyName(undefined, en)).toBeNull()
  })
})

describe("validPasskeyName", () => {
  it("trims and normalises (NFC); 1 to 64 characters (code points)", () => {
    expect(validPasskeyName("  Work laptop \n")).toBe("Work laptop")
    expect(validPasskeyName("Cafe\u0301")).toBe("Café")
    expect(validPasskeyName("🔑".repeat(64))).toBe("🔑".repeat(64))
  })

  it("refuses empty, too long, control characters and non-strings with InvalidPasskeyName", () => {
    for (const value of ["", "   ", "x".repeat(65), "tab\there", "bell\u0007", "c1\u0085", undefined, ["a"], 42]) {
      expect(() => validPasskeyName(value)).toThrow(expect.objectContaining({ type: "InvalidPasskeyName", message: expect.stringMatching(/1 to 64 characters/) }))
    }
  })
})
