/**
 * A real DNS server for the SSO domain tests (not a test file): UDP on 127.0.0.1, a random port,
 * built with dns-packet and node:dgram. It answers TXT queries from a map the test sets
 * (`publish(name, value)`); any other name is NXDOMAIN. The app is configured with
 * `sso: { dns: { servers: [server.address] } }`, so Gatehouse's own node:dns Resolver asks it.
 */
import { createRequire } from "node:module"
import { createSocket, type RemoteInfo } from "node:dgram"
import type { AddressInfo } from "node:net"

interface Question {
  name: string
  type: string
  class?: string
}
interface Packet {
  id?: number
  type?: "query" | "response"
  flags?: number
  questions?: Question[]
  answers?: Array<{ name: string; type: string; class?: string; ttl?: number; data: unknown }>
}
interface DnsPacket {
  encode(packet: Packet): Buffer
  decode(buffer: Buffer): Packet
  RECURSION_DESIRED: number
  RECURSION_AVAILABLE: number
  AUTHORITATIVE_ANSWER: number
}

// dns-packet ships no types; its two functions are described above.
const packet = createRequire(import.meta.url)("dns-packet") as DnsPacket

const NXDOMAIN = 3

export interface DnsServer {
  /** `127.0.0.1:<port>`, for `sso.dns.servers`. */
  readonly address: string
  /** Adds a TXT record (each call one more record of the name). */
  publish(name: string, value: string | string[]): void
  unpublish(name: string): void
  /** The TXT names asked for, in order. */
  readonly asked: string[]
  close(): Promise<void>
}

export async function startDnsServer(): Promise<DnsServer> {
  const records = new Map<string, string[][]>()
  const asked: string[] = []
  const socket = createSocket("udp4")
  socket.on("message", (message: Buffer, remote: RemoteInfo) => {
    let query: Packet
    try {
      query = packet.decode(message)
    } catch {
      return
    }
    const question = query.questions?.[0]
    if (!question) return
    const name = question.name.toLowerCase().replace(/\.$/, "")
    if (question.type === "TXT") asked.push(name)
    const found = question.type === "TXT" ? records.get(name) : undefined
    const flags = packet.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & packet.RECURSION_DESIRED)
    const response = packet.encode({
      id: query.id,
      type: "response",
      // The lowest four bits are the response code.
      flags: found ? flags : flags | NXDOMAIN,
      questions: query.questions,
      answers: (found ?? []).map((strings) => ({ name: question.name, type: "TXT", class: "IN", ttl: 1, data: strings.map((part) => Buffer.from(part)) })),
    })
    socket.send(response, remote.port, remote.address)
  })
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject)
    socket.bind(0, "127.0.0.1", () => resolve())
  })
  const { port } = socket.address() as AddressInfo
  return {
    address: `127.0.0.1:${port}`,
    asked,
    publish(name, value) {
      const key = name.toLowerCase().replace(/\.$/, "")
      records.set(key, [...(records.get(key) ?? []), Array.isArray(value) ? value : [value]])
    },
    unpublish(name) {
      records.delete(name.toLowerCase().replace(/\.$/, ""))
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}
