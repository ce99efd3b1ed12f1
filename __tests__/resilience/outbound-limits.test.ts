/**
 * Issue #13, outbound calls: every answer a provider sends is read up to a cap (default 1 MiB,
 * per provider `outbound.maxResponseSize`), every call ends within `outbound.timeout`, and a
 * redirect from a provider is not followed to an internal address its configuration does not
 * name. The providers are rogue servers on 127.0.0.1 (support/fault-rogue-op.ts); the sign-ins
 * end on the error page with the named error, no session, no user.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"
import { makeApp, reserve, testConfig } from "../helpers/app.js"
import { hang, recorder, sendJson, startRogueOp, type RogueOp } from "./support/fault-rogue-op.js"
import { finishAt, postSignin, startAt } from "./support/oauth-flow.js"
import { unreachablePort } from "./support/unreachable.js"

/** A bound on how long any answer here may take: the configured timeouts plus slack. */
const BOUND_MS = 20_000

let op: RogueOp
let site: Awaited<ReturnType<typeof reserve>>
let memory: MemoryAdapterInstance

function oauth(id: string, outbound?: OAuthProviderConfig["outbound"]): OAuthProviderConfig {
  return {
    id,
    name: id,
    type: "oauth",
    authorization: { url: `${op.url}/auth`, params: { scope: "email" } },
    token: `${op.url}/token`,
    userinfo: `${op.url}/me`,
    clientId: "rogue-client",
    clientSecret: "rogue-secret-0123456789abcdef",
    ...(outbound && { outbound }),
  }
}

beforeAll(async () => {
  op = await startRogueOp()
  site = await reserve()
  memory = MemoryAdapter()
  site.attach(
    makeApp(
      testConfig({
        adapter: memory,
        providers: [
          oauth("rogue"),
          oauth("small", { maxResponseSize: 2_000 }),
          oauth("quick", { timeout: 1_500 }),
          { id: "rogue-oidc", name: "Rogue OIDC", type: "oidc", issuer: op.url, clientId: "rogue-client", clientSecret: "rogue-secret-0123456789abcdef" },
        ],
      }),
    ),
  )
})

afterAll(async () => {
  await site.close()
  await op.close()
})

function bounded<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_resolve, reject) => setTimeout(() => reject(new Error(`no answer within ${BOUND_MS} ms`)), BOUND_MS).unref())])
}

async function expectErrorPage(outcome: { status: number; location: URL; signedIn?: boolean }, type: string): Promise<void> {
  expect(outcome.status).toBe(302)
  expect(outcome.location.origin).toBe(site.url)
  expect(`${outcome.location.pathname}?${outcome.location.searchParams}`).toBe(`/auth/error?error=${type}`)
  expect(outcome.signedIn ?? false).toBe(false)
  expect([memory.store.users.size, memory.store.sessions.size]).toEqual([0, 0])
  const page = await fetch(outcome.location)
  expect(page.status).toBeGreaterThanOrEqual(500)
  expect(page.status).toBeLessThan(600)
  expect(await page.text()).not.toMatch(/rogue-secret|\bat .+:\d+:\d+/)
}

/** An answer that never ends: 64 KiB chunks as fast as the reader takes them, until it hangs up. */
function endless(sent: { bytes: number; closed: boolean }) {
  return (_req: unknown, res: ServerResponse) => {
    const chunk = Buffer.alloc(64 * 1024, "x")
    res.writeHead(200, { "Content-Type": "application/json" })
    res.on("close", () => (sent.closed = true))
    const pump = () => {
      while (!res.destroyed) {
        sent.bytes += chunk.length
        if (!res.write(chunk)) return void res.once("drain", pump)
      }
    }
    pump()
  }
}

describe("a cap on every answer read from a provider", () => {
  it("an endless token answer: reading stops at 1 MiB, the socket is closed, ProviderResponseTooLarge on the error page, memory flat", async () => {
    const gc = (globalThis as { gc?: () => void }).gc
    expect(gc).toBeDefined()
    gc?.()
    const baseline = process.memoryUsage().heapUsed
    const sent = { bytes: 0, closed: false }
    op.token = endless(sent)
    const started = await startAt(site.url, "rogue")
    await expectErrorPage(await bounded(finishAt(site.url, started)), "ProviderResponseTooLarge")
    await new Promise((resume) => setTimeout(resume, 100))
    expect(sent.closed).toBe(true)
    // Only what the socket buffers held when it was closed: nowhere near an endless stream.
    expect(sent.bytes).toBeLessThan(32 * 1024 * 1024)
    gc?.()
    expect(process.memoryUsage().heapUsed - baseline).toBeLessThan(16 * 1024 * 1024)
  })

  it("an endless discovery document: the sign-in start ends the same way", async () => {
    const sent = { bytes: 0, closed: false }
    op.discovery = endless(sent)
    const { response } = await bounded(postSignin(site.url, "rogue-oidc"))
    await expectErrorPage({ status: response.status, location: new URL(response.headers.get("location") ?? "/", site.url) }, "ProviderResponseTooLarge")
    expect(response.headers.getSetCookie().some((line) => line.startsWith("authjs.state="))).toBe(false)
  })

  it("the cap is set per provider: 3 kB is refused by a provider capped at 2 000 bytes, taken by the default one", async () => {
    const profile = { sub: "p-1", email: "p1@example.com", name: "P".repeat(3_000) }
    op.token = sendJson(200, { access_token: "at-1", token_type: "bearer" })
    op.userinfo = sendJson(200, profile)
    await expectErrorPage(await finishAt(site.url, await startAt(site.url, "small")), "ProviderResponseTooLarge")
    const ok = await finishAt(site.url, await startAt(site.url, "rogue"))
    expect([ok.status, ok.signedIn]).toEqual([302, true])
    memory.store.users.clear()
    memory.store.accounts.clear()
    memory.store.sessions.clear()
  })
})

describe("a timeout on every call to a provider", () => {
  it("a token endpoint that never answers: ProviderTimeout on the error page within the provider's timeout", async () => {
    op.token = hang
    await expectErrorPage(await bounded(finishAt(site.url, await startAt(site.url, "quick"))), "ProviderTimeout")
  })

  it("the timeout covers the body: an answer that drips one byte every 100 ms ends the same way", async () => {
    op.token = (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" })
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(" ")), 100)
    }
    await expectErrorPage(await bounded(finishAt(site.url, await startAt(site.url, "quick"))), "ProviderTimeout")
  })

  it("a provider whose host does not accept the connection: ProviderTimeout after the connect timeout, not the total one", async () => {
    const { port, close } = await unreachablePort()
    const app = await reserve()
    try {
      const logged = jest.fn<(error: Error) => void>()
      const provider = { ...oauth("unreachable", { connectTimeout: 500, timeout: 10_000 }), token: `http://127.0.0.1:${port}/token` }
      app.attach(makeApp(testConfig({ adapter: memory, providers: [provider], logger: { error: logged } })))
      const outcome = await bounded(finishAt(app.url, await startAt(app.url, "unreachable")))
      expect(outcome.status).toBe(302)
      expect(`${outcome.location.pathname}?${outcome.location.searchParams}`).toBe("/auth/error?error=ProviderTimeout")
      const timeouts = logged.mock.calls.map(([error]) => error).filter((error) => (error as { type?: string }).type === "ProviderTimeout")
      expect(timeouts.map((error) => error.message)).toEqual([expect.stringContaining("not connected within 500 ms")])
    } finally {
      close()
      await app.close()
    }
  })

  it("a bad outbound option is refused at start-up, naming it", () => {
    expect(() => makeApp(testConfig({ providers: [oauth("bad", { timeout: -1 })] }))).toThrow(
      expect.objectContaining({ type: "InvalidOption", message: expect.stringContaining("providers[0].outbound.timeout") }) as unknown as Error,
    )
    expect(() => makeApp(testConfig({ providers: [oauth("bad", { maxResponseSize: 1, retries: 3 } as never)] }))).toThrow(
      expect.objectContaining({ type: "InvalidOption", message: expect.stringContaining("providers[0].outbound.retries") }) as unknown as Error,
    )
  })
})

describe("redirects from a provider", () => {
  /** A provider on 127.0.0.1 whose discovery document answers with a redirect to `to(origin)`. */
  async function discoveryRedirect(to: (own: string) => string) {
    const server = createServer((req, res) => {
      const own = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      if (req.url === "/.well-known/openid-configuration") return void res.writeHead(302, { Location: to(own) }).end()
      if (req.url === "/moved/openid-configuration") {
        return void sendJson(200, { issuer: own, authorization_endpoint: `${own}/auth`, token_endpoint: `${own}/token`, jwks_uri: `${own}/jwks`, response_types_supported: ["code"] })(req, res)
      }
      res.writeHead(404).end()
    })
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const app = await reserve()
    app.attach(makeApp(testConfig({ providers: [{ id: "moved", name: "Moved", type: "oidc", issuer: url, clientId: "c", clientSecret: "s" }] })))
    const close = async () => {
      await app.close()
      await new Promise((closed) => server.close(closed))
    }
    return { url, app, close }
  }

  it("to the same configured host: followed (the sign-in starts at the moved document's endpoint)", async () => {
    const idp = await discoveryRedirect((own) => `${own}/moved/openid-configuration`)
    try {
      const { response } = await postSignin(idp.app.url, "moved")
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toMatch(new RegExp(`^${idp.url}/auth\\?`))
    } finally {
      await idp.close()
    }
  })

  it.each([
    ["another loopback address (127.0.0.2)", true],
    ["the cloud metadata address (169.254.169.254)", false],
  ])("to %s: not followed, ProviderRedirectRefused on the error page", async (_name, loopback) => {
    const target = loopback ? await recorder("127.0.0.2") : undefined
    const idp = await discoveryRedirect(() => (target ? `${target.url}/openid-configuration` : "http://169.254.169.254/latest/meta-data/"))
    try {
      const { response } = await bounded(postSignin(idp.app.url, "moved"))
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get("location") ?? "/", idp.app.url)
      expect(`${location.pathname}?${location.searchParams}`).toBe("/auth/error?error=ProviderRedirectRefused")
      if (target) expect(target.hits).toEqual([])
    } finally {
      await idp.close()
      await target?.close()
    }
  })
})
