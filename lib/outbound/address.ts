/**
 * Which addresses a redirect from a provider may lead to. Private, loopback, link-local (the
 * cloud metadata address 169.254.169.254), carrier-grade NAT, multicast and reserved ranges are
 * refused unless the provider's own configuration names that host: a provider running on
 * 127.0.0.1 in development may redirect within 127.0.0.1, never to 127.0.0.2 or 10.0.0.1.
 */
import { BlockList, isIP } from "node:net"

const INTERNAL = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) INTERNAL.addSubnet(network, prefix, "ipv4")
for (const [network, prefix] of [["::", 127], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["64:ff9b::", 96]] as const) INTERNAL.addSubnet(network, prefix, "ipv6")

/** An IP literal's text without the brackets of a URL host (`[::1]` -> `::1`). */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase()
}

export function isInternalAddress(address: string): boolean {
  const ip = bareHost(address)
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)
  if (mapped) return INTERNAL.check(mapped[1] as string, "ipv4")
  const family = isIP(ip)
  if (family === 4) return INTERNAL.check(ip, "ipv4")
  if (family === 6) return INTERNAL.check(ip, "ipv6")
  return false
}

/** The hosts named in a provider's own endpoint options (lower case, IPv6 without brackets). */
export function configuredHosts(urls: readonly (string | undefined)[]): ReadonlySet<string> {
  const hosts = new Set<string>()
  for (const url of urls) {
    if (!url) continue
    try {
      hosts.add(bareHost(new URL(url).hostname))
    } catch {
      // Not a URL: the endpoint checks report it.
    }
  }
  return hosts
}
