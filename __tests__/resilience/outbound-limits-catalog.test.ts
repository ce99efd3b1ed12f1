/**
 * Issue #13, outbound calls of providers that come with a fetch of their own. The built-in
 * Twitch, TikTok and VK providers mend their servers' token answers in a fetch layer; that layer
 * runs over Gatehouse's transport, so they get every limit the other providers get: the connect
 * timeout (a token endpoint that never accepts the connection ends after `connectTimeout`, not
 * after the total `timeout`) and the address check at connect time on a redirect's target. A
 * fetch the app gives itself keeps the total timeout even when it ignores the abort signal.
 *
 * The connect-time check is shown with a DNS answer that changes between a check and the
 * connection (rebinding): in this file every look-up made through `node:dns/promises` (a check
 * before the call) answers that `localhost` is 203.0.113.7, a public address, while the
 * connection itself resolves it as the system does, to 127.0.0.1. A check made before the call
 * lets the redirect through and the request lands on 127.0.0.1; a check on the addresses
 * actually connected to refuses it. Servers are real, on 127.0.0.1.
 */
import { jest } from "@jest/globals"
import type { LookupAddress, LookupOptions } from "node:dns"
import type { Provider } from "../../lib/providers/types.js"
import type { RogueOp } from "./support/fault-rogue-op.js"

const PUBLIC_ADDRESS = "203.0.113.7"
const realDns = await import("node:dns")
async function rebindingLookup(hostname: string, options?: LookupOptions | number): Promise<LookupAddress | LookupAddress[]> {
  if (hostname !== "localhost") return realDns.promises.lookup(hostname, options as LookupOptions)
  const answer = { address: PUBLIC_ADDRESS, family: 4 }
  return typeof options === "object" && options.all ? [answer] : answer
}
jest.unstable_mockModule("node:dns/promises", () => ({ ...realDns.promises, default: { ...realDns.promises, lookup: rebindingLookup }, lookup: rebindingLookup }))

const { afterAll, beforeAll, describe, expect, it } = await import("@jest/globals")
const { createServer } = await import("node:http")
const { MemoryAdapter } = await import("../../adapters/memory/index.js")
const { customFetch } = await import("../../lib/core/symbols.js")
const { default: Twitch } = await import("../../lib/providers/twitch.js")
const { default: TikTok } = await import("../../lib/providers/tiktok.js")
const { default: VK } = await import("../../lib/providers/vk.js")
const { makeApp, reserve, testConfig } = await import("../helpers/app.js")
const { recorder, sendJson, startRogueOp } = await import("./support/fault-rogue-op.js")
const { finishAt, postSignin, startAt } = await import("./support/oauth-flow.js")
const { unreachablePort } = await import("./support/unreachable.js")


/** A bound on how long any answer here may take: the configured timeouts plus slack. */
const BOUND_MS = 20_000
/** The total timeout of the providers whose connection hangs: the connect timeout (500 ms) is far below it. */
const TOTAL_MS = 10_000

let op: RogueOp

beforeAll(async () => {
  op = await startRogueOp()
  op.discovery = sendJson(200, {
    issuer: op.url,
    authorization_endpoint: `${op.url}/auth`,
    token_endpoint: `${op.url}/token`,
    jwks_uri: `${op.url}/jwks`,
    response_types_supported: ["code"],
  })
})

afterAll(async () => {
  await op.close()
})

function bounded<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${BOUND_MS} ms`)), BOUND_MS).unref())])
}

const secrets = { clientId: "catalog-client", clientSecret: "catalog-secret-0123456789abcdef" }

/** Each built-in provider with its own fetch layer, its sign-in at the rogue provider and its token endpoint at `token`. */
const catalog: [string, (token: string, outbound: { connectTimeout?: number; timeout?: number }, fetchImpl?: typeof fetch) => Provider][] = [
  ["Twitch", (token, outbound, fetchImpl) => Twitch({ ...secrets, issuer: op.url, token, outbound, ...(fetchImpl && { [customFetch]: fetchImpl }) }) as Provider],
  ["TikTok", (token, outbound, fetchImpl) => TikTok({ ...secrets, authorization: { url: `${op.url}/auth` }, token, outbound, ...(fetchImpl && { [customFetch]: fetchImpl }) }) as Provider],
  ["VK", (token, outbound, fetchImpl) => VK({ ...secrets, authorization: `${op.url}/auth`, token, outbound, ...(fetchImpl && { [customFetch]: fetchImpl }) }) as Provider],
]

async function signInAt(provider: Provider) {
  const memory = MemoryAdapter()
  const logged = jest.fn<(error: Error) => void>()
  const app = await reserve()
  app.attach(makeApp(testConfig({ adapter: memory, providers: [provider], logger: { error: logged } })))
  try {
    const id = (provider as { id: string }).id
    const started = await startAt(app.url, id)
    const begun = Date.now()
    const outcome = await bounded(finishAt(app.url, started))
    const elapsed = Date.now() - begun
    const errors = logged.mock.calls.map(([error]) => error as Error & { type?: string })
    return { outcome, elapsed, errors, stored: [memory.store.users.size, memory.store.sessions.size] }
  } finally {
    await app.close()
  }
}

describe("built-in providers with a fetch layer (Twitch, TikTok, VK) get Gatehouse's transport", () => {
  it.each(catalog)("%s: a token endpoint that never accepts the connection ends in ProviderTimeout after the connect timeout", async (_name, make) => {
    const { port, close } = await unreachablePort()
    try {
      const { outcome, elapsed, errors, stored } = await signInAt(make(`http://127.0.0.1:${port}/token`, { connectTimeout: 500, timeout: TOTAL_MS }))
      expect(outcome.status).toBe(302)
      expect(`${outcome.location.pathname}?${outcome.location.searchParams}`).toBe("/auth/error?error=ProviderTimeout")
      expect([outcome.signedIn, stored]).toEqual([false, [0, 0]])
      expect(errors.filter((error) => error.type === "ProviderTimeout").map((error) => error.message)).toEqual([expect.stringContaining("not connected within 500 ms")])
      // Ended by the connect timeout: far from the total one (no precise timing asserted).
      expect(elapsed).toBeLessThan(TOTAL_MS / 2)
    } finally {
      close()
    }
  })

  it("Twitch: a discovery redirect to a name that resolves to 127.0.0.1 when connecting is refused (ProviderRedirectRefused), though a check before the call saw a public address", async () => {
    const target = await recorder("127.0.0.1")
    const targetPort = new URL(target.url).port
    const server = createServer((req, res) => {
      if (req.url === "/.well-known/openid-configuration") return void res.writeHead(302, { Location: `http://localhost:${targetPort}/openid-configuration` }).end()
      res.writeHead(404).end()
    })
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
    const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    const app = await reserve()
    app.attach(makeApp(testConfig({ providers: [Twitch({ ...secrets, issuer }) as Provider] })))
    try {
      const { response } = await bounded(postSignin(app.url, "twitch"))
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get("location") ?? "/", app.url)
      expect(`${location.pathname}?${location.searchParams}`).toBe("/auth/error?error=ProviderRedirectRefused")
      expect(response.headers.getSetCookie().some((line) => line.startsWith("authjs.state="))).toBe(false)
      expect(target.hits).toEqual([])
    } finally {
      await app.close()
      await new Promise((closed) => server.close(closed))
      await target.close()
    }
  })
})

describe("a fetch the app gives a provider", () => {
  it.each(catalog)("%s with the app's fetch that ignores the abort signal: ProviderTimeout within the total timeout all the same", async (_name, make) => {
    let held = 0
    const ignoring = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      if (init?.method?.toUpperCase() !== "POST") return fetch(input, init)
      held++
      return new Promise<Response>(() => undefined)
    }) as typeof fetch
    const { outcome, elapsed, errors } = await signInAt(make(`${op.url}/token`, { timeout: 1_000 }, ignoring))
    expect(held).toBe(1)
    expect(`${outcome.location.pathname}?${outcome.location.searchParams}`).toBe("/auth/error?error=ProviderTimeout")
    expect(errors.filter((error) => error.type === "ProviderTimeout").map((error) => error.message)).toEqual([expect.stringContaining("no complete answer within 1000 ms")])
    expect(elapsed).toBeLessThan(BOUND_MS / 2)
  })
})
