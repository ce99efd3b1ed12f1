/**
 * The address a rate limit is keyed on. Express's `req.ip` when there is one: the socket's peer
 * unless the app set `trust proxy`, and then the right-most untrusted X-Forwarded-For entry, never
 * the client-chosen left-most one. Otherwise the socket's peer. IPv4-mapped IPv6 reads as IPv4;
 * an IPv6 address counts by its /64, the block one subscriber usually holds.
 */
import { isIPv6 } from "node:net"

export function clientAddress(source: { ip?: unknown; socket?: { remoteAddress?: string } } | undefined): string | undefined {
  const raw = typeof source?.ip === "string" && source.ip ? source.ip : source?.socket?.remoteAddress
  return raw ? normalizeAddress(raw) : undefined
}

export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped) return mapped[1] as string
  if (!isIPv6(address)) return address
  return `${expand(address).slice(0, 4).join(":")}::/64`
}

/** The eight groups of an IPv6 address, `::` filled in (zone id dropped). */
function expand(address: string): string[] {
  const [head = "", tail] = address.split("%")[0]!.split("::") as [string, string | undefined]
  const left = head ? head.split(":") : []
  const right = tail ? tail.split(":") : []
  const missing = tail === undefined ? 0 : 8 - left.length - right.length
  return [...left, ...Array.from({ length: missing }, () => "0"), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ""))
}
