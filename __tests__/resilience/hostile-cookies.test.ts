/**
 * Issue #13, hostile cookies: 200 session chunk cookies, chunks of 100 kB, and a `Cookie` header
 * just under Node's header limit. Each request is answered as signed out (`/auth/session` null,
 * the protected API 401, never 5xx), nothing is logged per request at the default level (the
 * cookie that does not open is a debug line, printed only at logLevel "verbose"), and the heap
 * after 300 such requests is back near where it was (`--expose-gc`, as `npm run test:resilience`
 * runs). The servers are node:http with a raised header limit where a case needs one, so the
 * headers reach Gatehouse instead of Node's 431.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { makeApp, testConfig } from "../helpers/app.js"

const SESSION = "authjs.session-token"
/** The app's error and warning sinks; debug lines go to the default logger, off at the "warn" level. */
const logged = { error: jest.fn(), warn: jest.fn() }
let big: Server
let standard: Server

function listen(maxHeaderSize?: number): Promise<Server> {
  const app = makeApp(testConfig({ logLevel: "warn", logger: logged as never }))
  const server = createServer({ maxHeaderSize }, app)
  return new Promise((listening) => server.listen(0, "127.0.0.1", () => listening(server)))
}

beforeAll(async () => {
  big = await listen(4 * 1024 * 1024)
  standard = await listen()
})

afterAll(async () => {
  for (const server of [big, standard]) await new Promise((closed) => (server.closeAllConnections(), server.close(closed)))
})

function get(server: Server, path: string, cookie: string): Promise<{ status: number; body: string }> {
  const { port } = server.address() as AddressInfo
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { Cookie: cookie, Accept: "application/json" }, agent: false }, (res) => {
      let body = ""
      res.on("data", (chunk: Buffer) => (body += chunk.toString()))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on("error", reject)
    req.end()
  })
}

function chunks(count: number, size: number): string {
  return Array.from({ length: count }, (_, i) => `${SESSION}.${i}=${"eyJ".padEnd(size, String.fromCharCode(97 + (i % 26)))}`).join("; ")
}

const CASES: Array<[string, () => Server, string]> = [
  ["200 session chunk cookies", () => big, chunks(200, 200)],
  ["chunks of 100 kB", () => big, chunks(5, 100 * 1024)],
  ["a Cookie header just under Node's 16 kB header limit", () => standard, chunks(4, 3_900)],
]

describe("hostile session cookies", () => {
  it.each(CASES)("%s: signed out, never 5xx, no log line per request at the default level", async (_name, server, cookie) => {
    for (const fn of Object.values(logged)) fn.mockClear()
    const printed = (["log", "info", "warn", "error", "debug"] as const).map((level) => jest.spyOn(console, level).mockImplementation(() => undefined))
    for (let i = 0; i < 20; i++) {
      const session = await get(server(), "/auth/session", cookie)
      expect([session.status, session.body]).toEqual([200, "null"])
      const api = await get(server(), "/api/me", cookie)
      expect(api.status).toBe(401)
    }
    const calls = [...Object.values(logged), ...printed].reduce((sum, fn) => sum + fn.mock.calls.length, 0)
    for (const spy of printed) spy.mockRestore()
    expect(calls).toBeLessThanOrEqual(1)
  })

  it("300 of them in a row leave the heap flat", async () => {
    const gc = (globalThis as { gc?: () => void }).gc
    expect(gc).toBeDefined()
    gc?.()
    const baseline = process.memoryUsage().heapUsed
    for (let round = 0; round < 100; round++) {
      for (const [, server, cookie] of CASES) expect((await get(server(), "/auth/session", cookie)).status).toBe(200)
    }
    gc?.()
    expect(process.memoryUsage().heapUsed - baseline).toBeLessThan(16 * 1024 * 1024)
  })
})
