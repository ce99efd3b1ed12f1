/**
 * Where a session was started, only when it tells people something (issue #26). The address a
 * session keeps is the one rate limits see (lib/rate-limit/client-address.ts): an IPv4 address, or
 * an IPv6 address's /64 network. A loopback address (the app and the browser on one computer) is
 * "This computer"; a private or link-local one is "Local network"; a public address is shown as it
 * is, IPv6 as its network's first half without the "::/64" a person would not read. Never a
 * loopback network such as "0:0:0:0::/64".
 */
import { isIP } from "node:net"
import { builtInDevicesTexts, type DevicesTexts } from "./builtin-texts.js"

export type PlaceKind = "loopback" | "private" | "public"

const IPV4_PRIVATE: ReadonlyArray<readonly [number, number, number]> = [
  // [first octet, second octet's low bound, high bound]
  [10, 0, 255],
  [172, 16, 31],
  [192, 168, 168],
  [169, 254, 254], // link-local
  [100, 64, 127], // carrier-grade NAT
]

/** What kind of address `ip` is (an address, or an IPv6 network `x:x:x:x::/64`); null when it is none. */
export function placeKind(ip: string | null | undefined): PlaceKind | null {
  if (!ip) return null
  const [address = "", prefix] = ip.trim().split("/")
  const kind = isIP(address)
  if (kind === 4) {
    const [a = 0, b = 0] = address.split(".").map(Number)
    if (a === 127) return "loopback"
    if (a === 0) return "loopback"
    return IPV4_PRIVATE.some(([first, low, high]) => a === first && b >= low && b <= high) ? "private" : "public"
  }
  if (kind === 6) {
    const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
    if (mapped) return placeKind(mapped[1])
    const groups = ipv6Groups(address)
    // "::1" and "::", or the /64 a loopback address is kept as ("0:0:0:0::/64").
    const zeroHead = groups.slice(0, prefix === undefined ? 7 : 4).every((group) => group === 0)
    if (zeroHead && (prefix !== undefined || groups[7]! <= 1)) return "loopback"
    const first = groups[0]!
    if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80) return "private"
    return "public"
  }
  return null
}

/** The eight groups of an IPv6 address as numbers, `::` filled in (a zone id dropped). */
function ipv6Groups(address: string): number[] {
  const [head = "", tail] = address.split("%")[0]!.split("::") as [string, string | undefined]
  const left = head ? head.split(":") : []
  const right = tail ? tail.split(":") : []
  const missing = tail === undefined ? 0 : 8 - left.length - right.length
  return [...left, ...Array.from({ length: missing }, () => "0"), ...right].map((group) => parseInt(group, 16) || 0)
}

/** The place with these texts; null when unknown. */
export function placeWith(ip: string | null | undefined, texts: Pick<DevicesTexts, "devices.place.loopback" | "devices.place.private">): string | null {
  const kind = placeKind(ip)
  if (kind === "loopback") return texts["devices.place.loopback"]
  if (kind === "private") return texts["devices.place.private"]
  if (kind === "public") return (ip as string).trim().replace(/::\/64$/, "::")
  return null
}

/**
 * Where a session was started, for people: `"This computer"` for a loopback address, `"Local
 * network"` for a private or link-local one (in the page's language), the address itself for a
 * public one (an IPv6 network as `2001:db8:1:2::`), or `null` when there is none or it is not an
 * address. Never a truncated loopback network such as `0:0:0:0::/64`.
 *
 * @param ip - the address a session kept (`SessionInfo.ip` from `listSessions`)
 * @param locale - a BCP 47 language tag; the closest built-in language (en, de, fr, es, ja) is used, else English
 * @example devicePlace("127.0.0.1") // "This computer"
 */
export function devicePlace(ip: string | null | undefined, locale = "en"): string | null {
  return placeWith(ip, builtInDevicesTexts(locale))
}
