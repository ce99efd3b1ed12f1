/**
 * Issue #26: the formatters the built-in account page uses, exported from `gatehouse` for apps
 * that draw their own: a device's label ("Chrome on macOS"), its place (never a truncated loopback
 * network), and dates in the page's language.
 */
import { describe, expect, it } from "@jest/globals"
import { deviceLabel, devicePlace, formatDateTime, formatRelativeTime } from "../../../lib/index.js"
import { normalizeAddress } from "../../../lib/rate-limit/client-address.js"

const UA = {
  macChrome: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  winEdge: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  linuxFirefox: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  iphoneSafari: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  iphoneChrome: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  androidSamsung: "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  chromebook: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  opera: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
}

describe("deviceLabel", () => {
  it.each([
    [UA.macChrome, "Chrome on macOS"],
    [UA.winEdge, "Edge on Windows"],
    [UA.linuxFirefox, "Firefox on Linux"],
    [UA.iphoneSafari, "Safari on iOS"],
    [UA.iphoneChrome, "Chrome on iOS"],
    [UA.androidSamsung, "Samsung Internet on Android"],
    [UA.chromebook, "Chrome on ChromeOS"],
    [UA.opera, "Opera on Windows"],
  ])("%s reads %s", (userAgent, label) => {
    expect(deviceLabel(userAgent)).toBe(label)
  })

  it("in the page's language (the closest built-in one, else English)", () => {
    expect(deviceLabel(UA.macChrome, "de-CH")).toBe("Chrome unter macOS")
    expect(deviceLabel(UA.macChrome, "fr")).toBe("Chrome sur macOS")
    expect(deviceLabel(UA.macChrome, "es-MX")).toBe("Chrome en macOS")
    expect(deviceLabel(UA.macChrome, "ja-JP")).toBe("macOS の Chrome")
    expect(deviceLabel(UA.macChrome, "pt-BR")).toBe("Chrome on macOS")
  })

  it("only one part when only one is known; null when neither is, or there is no user agent", () => {
    expect(deviceLabel("curl/8.5.0 (Windows)")).toBe("Windows")
    expect(deviceLabel("Something Firefox/1.0")).toBe("Firefox")
    expect(deviceLabel("curl/8.5.0")).toBeNull()
    expect(deviceLabel(null)).toBeNull()
    expect(deviceLabel("")).toBeNull()
  })
})

describe("devicePlace", () => {
  it("a loopback address, as the session keeps it (IPv6 as its /64), is 'This computer', never the network", () => {
    for (const ip of ["127.0.0.1", "127.0.0.0/24", "::1", normalizeAddress("::1"), "0:0:0:0::/64", normalizeAddress("::ffff:127.0.0.1"), "::ffff:127.0.0.1"]) {
      expect(devicePlace(ip)).toBe("This computer")
    }
    expect(devicePlace("::1", "de")).toBe("Dieser Computer")
    expect(devicePlace("127.0.0.1", "ja")).toBe("このコンピューター")
  })

  it("a private or link-local address is 'Local network'", () => {
    for (const ip of ["10.1.2.3", "172.16.0.5", "172.31.255.1", "192.168.1.20", "169.254.10.1", "100.64.0.1", normalizeAddress("fd12:3456:789a:1::5"), normalizeAddress("fe80::1")]) {
      expect(devicePlace(ip)).toBe("Local network")
    }
    expect(devicePlace("192.168.1.20", "fr")).toBe("Réseau local")
  })

  it("a public address as it is (an IPv6 network without '/64'); nothing for no address or not an address", () => {
    expect(devicePlace("203.0.113.7")).toBe("203.0.113.7")
    expect(devicePlace("172.32.0.1")).toBe("172.32.0.1")
    expect(devicePlace(normalizeAddress("2001:db8:1:2::99"))).toBe("2001:db8:1:2::")
    expect(devicePlace(null)).toBeNull()
    expect(devicePlace(undefined)).toBeNull()
    expect(devicePlace("")).toBeNull()
    expect(devicePlace("unknown")).toBeNull()
  })
})

describe("formatDateTime and formatRelativeTime", () => {
  const date = new Date("2026-11-27T17:02:00Z")

  it("a date and time in the page's language", () => {
    expect(formatDateTime(date, "en-US", "UTC")).toBe(new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(date))
    expect(formatDateTime(date, "en-US", "UTC")).toMatch(/^Nov 27, 2026, 5:02\sPM$/)
    expect(formatDateTime(date, "de", "UTC")).toBe("27.11.2026, 17:02")
    expect(formatDateTime(date.toISOString(), "de", "UTC")).toBe("27.11.2026, 17:02")
    expect(formatDateTime(date.getTime(), "de", "UTC")).toBe("27.11.2026, 17:02")
    expect(formatDateTime("not a date", "en")).toBe("")
  })

  it("how long ago, in the largest fitting unit and the page's language", () => {
    const now = date.getTime()
    expect(formatRelativeTime(now - 10_000, "en", now)).toBe("now")
    expect(formatRelativeTime(now - 5 * 60_000, "en", now)).toBe("5 minutes ago")
    expect(formatRelativeTime(now - 3 * 3_600_000, "en", now)).toBe("3 hours ago")
    expect(formatRelativeTime(now - 24 * 3_600_000, "en", now)).toBe("yesterday")
    expect(formatRelativeTime(now - 14 * 86_400_000, "en", now)).toBe("2 weeks ago")
    expect(formatRelativeTime(now - 5 * 60_000, "de", now)).toBe("vor 5 Minuten")
    expect(formatRelativeTime(now - 24 * 3_600_000, "fr", now)).toBe("hier")
    expect(formatRelativeTime(new Date(now - 2 * 86_400_000), "es", new Date(now))).toBe("anteayer")
    expect(formatRelativeTime("nope", "en", now)).toBe("")
  })
})
