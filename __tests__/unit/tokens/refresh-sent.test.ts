/**
 * Issue #17: which failed calls to a provider certainly did not send anything (lib/outbound/
 * transport.ts `notSent`, and refresh-grant.ts `certainlyNotSent` over the cause chain), so the
 * refresh grant may try once more without sending a refresh token twice. Real sockets on loopback.
 */
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net"
import { afterEach, describe, expect, it } from "@jest/globals"
import { DEFAULT_OUTBOUND } from "../../../lib/outbound/options.js"
import { call, notSent } from "../../../lib/outbound/transport.js"
import { certainlyNotSent } from "../../../lib/tokens/refresh-grant.js"

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** A TCP server that accepts connections and counts the bytes it receives, never answering. */
async function silentServer() {
  const sockets: Socket[] = []
  let received = 0
  const server = createTcpServer((socket) => {
    sockets.push(socket)
    socket.on("data", (chunk) => (received += chunk.length))
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  closers.push(async () => {
    sockets.forEach((socket) => socket.destroy())
    await new Promise((closed) => server.close(closed))
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, received: () => received }
}

async function closedPort(): Promise<string> {
  const server = createTcpServer()
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const port = (server.address() as AddressInfo).port
  await new Promise((closed) => server.close(closed))
  return `http://127.0.0.1:${port}/token`
}

const post = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=refresh_token&refresh_token=rt-1" }

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail")
    },
    (error: unknown) => error,
  )
}

describe("a failed call to a provider: was anything sent?", () => {
  it("connection refused: nothing was sent", async () => {
    const error = await failure(call(new URL(await closedPort()), post, DEFAULT_OUTBOUND))
    expect((error as { code?: string }).code).toBe("ECONNREFUSED")
    expect(notSent(error)).toBe(true)
    expect(certainlyNotSent(error)).toBe(true)
    // However deep openid-client wraps it.
    expect(certainlyNotSent(new Error("wrapped", { cause: new Error("again", { cause: error }) }))).toBe(true)
  })

  it("a timeout after the request was written: it may have reached the provider", async () => {
    const server = await silentServer()
    const error = await failure(call(new URL(server.url), post, { ...DEFAULT_OUTBOUND, timeout: 300 }))
    expect((error as { type?: string }).type).toBe("ProviderTimeout")
    expect(server.received()).toBeGreaterThan(0)
    expect(notSent(error)).toBe(false)
    expect(certainlyNotSent(error)).toBe(false)
  })

  it("errors from elsewhere: sent unless their code says the connection never opened", () => {
    expect(certainlyNotSent(new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }))).toBe(true)
    expect(certainlyNotSent(new TypeError("fetch failed", { cause: Object.assign(new Error("getaddrinfo ENOTFOUND idp.example"), { code: "ENOTFOUND" }) }))).toBe(true)
    expect(certainlyNotSent(new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) }))).toBe(false)
    expect(certainlyNotSent(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(false)
    expect(certainlyNotSent(new Error("no code"))).toBe(false)
  })
})
