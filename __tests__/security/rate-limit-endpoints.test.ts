/**
 * Issue #13: every endpoint that costs work is rate-limited per client address, and the address
 * is the socket's unless the app trusts a proxy. The passkey options endpoint (registration and
 * authentication ceremonies alike) counts apart from the verifications; 1 000 requests carrying
 * random `X-Forwarded-For` addresses, with `trust proxy` off, are limited as the one client they
 * are. Apps are built with NODE_ENV=production (limits on by default).
 */
import { afterEach, describe, expect, it } from "@jest/globals"
import { randomBytes } from "node:crypto"
import { request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import type { Server } from "node:http"
import { DEFAULT_RATE_LIMITS } from "../../lib/rate-limit/options.js"
import { Browser, buildApp as buildPasskeyApp, TLS } from "../webauthn/fixtures.js"
import { AUTH_URL, buildApp, call, csrfPair, preserveEnv } from "./fixtures.js"

preserveEnv("AUTH_URL", "NODE_ENV")

function inProduction<T>(build: () => T): T {
  const saved = process.env.NODE_ENV
  process.env.NODE_ENV = "production"
  try {
    return build()
  } finally {
    process.env.NODE_ENV = saved
  }
}

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((closed) => (server.closeAllConnections(), server.close(closed)))))
})

/** A random public-looking IPv4 address for X-Forwarded-For. */
function randomAddress(): string {
  const [a, b, c, d] = randomBytes(4)
  return `${((a as number) % 200) + 11}.${b}.${c}.${d}`
}

/** GET over a socket bound to `localAddress` (a loopback alias): a different client address. */
function getFrom(server: Server, localAddress: string, path: string, headers: Record<string, string>): Promise<number> {
  const { port } = server.address() as AddressInfo
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, localAddress, path, headers, agent: false }, (res) => {
      res.resume()
      res.on("end", () => resolve(res.statusCode ?? 0))
    })
    req.on("error", reject)
    req.end()
  })
}

const OPTIONS_LIMIT = DEFAULT_RATE_LIMITS.webauthnOptions.ip?.limit as number

describe("the passkey options endpoint is limited per client address", () => {
  it(`registration and authentication options share one limit of ${OPTIONS_LIMIT} per 15 minutes: then 429 with Retry-After; another address is unaffected`, async () => {
    expect(DEFAULT_RATE_LIMITS.webauthnOptions.ip).toEqual({ limit: 100, window: 900 })
    const built = inProduction(() => buildPasskeyApp())
    const browser = new Browser(built.app)
    for (let i = 0; i < OPTIONS_LIMIT; i++) {
      const query = i % 2 ? "action=authenticate" : `email=${encodeURIComponent(`new-${i}@example.com`)}`
      const res = await browser.options(query)
      expect([res.status, res.body.action]).toEqual([200, i % 2 ? "authenticate" : "register"])
    }
    for (const query of ["action=authenticate", "email=late%40example.com"]) {
      const res = await browser.options(query)
      expect(res.status).toBe(429)
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(800)
      expect(res.body.error.type).toBe("RateLimited")
    }
    // The limit is the address's, not the endpoint's: 127.0.0.2 still gets options.
    const server = (built.app as unknown as { listen: (port: number, host: string) => Server }).listen(0, "127.0.0.1")
    servers.push(server)
    await new Promise((listening) => server.once("listening", listening))
    expect(await getFrom(server, "127.0.0.2", "/auth/webauthn-options/passkey?action=authenticate", { Host: TLS.host, Accept: "application/json" })).toBe(200)
  })

  it("rateLimit.webauthnOptions is configurable, and false turns it off", async () => {
    const tight = inProduction(() => buildPasskeyApp({ config: { rateLimit: { webauthnOptions: { ip: { limit: 2, window: 60 } } } } }))
    const browser = new Browser(tight.app)
    expect([(await browser.options()).status, (await browser.options()).status, (await browser.options()).status]).toEqual([200, 200, 429])
    const off = inProduction(() => buildPasskeyApp({ config: { rateLimit: { webauthnOptions: false } } }))
    const free = new Browser(off.app)
    for (let i = 0; i < OPTIONS_LIMIT + 5; i++) expect((await free.options()).status).toBe(200)
  })
})

describe("X-Forwarded-For with trust proxy off never changes the limited address", () => {
  it("1 000 credential attempts with random X-Forwarded-For addresses (and usernames): exactly the per-address limit gets through", async () => {
    const { app } = inProduction(() => buildApp(AUTH_URL))
    const pair = await csrfPair(app)
    const limit = DEFAULT_RATE_LIMITS.credentials.ip?.limit as number
    const statuses: number[] = []
    for (let batch = 0; batch < 1_000; batch += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          call(app, "POST", "/auth/callback/credentials", {
            cookie: pair.cookie,
            accept: "application/json",
            headers: { "X-Forwarded-For": `${randomAddress()}, ${randomAddress()}`, "X-Real-IP": randomAddress() },
            form: { csrfToken: pair.token, username: `nobody-${randomBytes(6).toString("hex")}`, password: "wrong" },
          }),
        ),
      )
      statuses.push(...answers.map((answer) => answer.status))
    }
    expect(statuses.filter((status) => status !== 429)).toHaveLength(limit)
    expect(statuses.filter((status) => status === 429)).toHaveLength(1_000 - limit)
    expect(statuses.filter((status) => status >= 500)).toEqual([])
  })

  it("1 000 passkey options requests with random X-Forwarded-For: limited the same way", async () => {
    const built = inProduction(() => buildPasskeyApp())
    const browser = new Browser(built.app)
    let passed = 0
    for (let i = 0; i < 1_000; i += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => browser.options("action=authenticate", "passkey", { "X-Forwarded-For": randomAddress() })))
      passed += answers.filter((answer) => answer.status === 200).length
      expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true)
    }
    expect(passed).toBe(OPTIONS_LIMIT)
  })
})
