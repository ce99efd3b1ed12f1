/**
 * `configSource`: a static configuration is resolved (and refused) when the middleware is built;
 * a function of the request (sync or async) is resolved per returned object, cached by identity.
 */
import { jest } from "@jest/globals"
import { configSource } from "../../../lib/express/config.js"
import type { GatehouseRequest } from "../../../lib/express/types.js"
import { InvalidOption, MissingAuthorize } from "../../../lib/errors.js"
import type { AuthConfig, AuthConfigInput } from "../../../lib/types.js"
import { testConfig } from "../../helpers/app.js"
import { thrown } from "./support.js"

/** trustHost so resolution does not depend on NODE_ENV (configSource reads process.env). */
const fresh = (overrides: Partial<AuthConfig> = {}): AuthConfig => testConfig({ trustHost: true, ...overrides })
const fakeRequest = (url = "/auth/session"): GatehouseRequest => ({ url, method: "GET", headers: { host: "example.com" } }) as unknown as GatehouseRequest

describe("a static configuration", () => {
  it("is resolved at construction: an invalid one throws there", () => {
    const error = thrown(() => configSource(fresh({ basePath: "auth" })))
    expect(error).toBeInstanceOf(InvalidOption)
    expect((error as Error).message).toContain("basePath")
  })

  it("a credentials provider without authorize throws at construction", () => {
    const bad = fresh({ providers: [{ id: "login", name: "Login", type: "credentials" } as unknown as AuthConfig["providers"][number]] })
    expect(thrown(() => configSource(bad))).toBeInstanceOf(MissingAuthorize)
  })

  it("answers the same resolved configuration for every request", async () => {
    const cfg = fresh()
    const source = configSource(cfg)
    const first = await source(fakeRequest())
    expect(first.source).toBe(cfg)
    expect(await source(fakeRequest("/other"))).toBe(first)
  })
})

describe("a lazy configuration", () => {
  it("a sync function: called with the request, its configuration resolved", async () => {
    const cfg = fresh({ basePath: "/tenant-a" })
    const fn = jest.fn((_req?: unknown) => cfg)
    const source = configSource(fn as AuthConfigInput)
    expect(fn).not.toHaveBeenCalled()
    const req = fakeRequest()
    const resolved = await source(req)
    expect(fn).toHaveBeenCalledTimes(1)
    expect(fn.mock.calls[0]![0]).toBe(req)
    expect(resolved.source).toBe(cfg)
    expect(resolved.basePath).toBe("/tenant-a")
  })

  it("an async function: called with the request, its configuration resolved", async () => {
    const cfg = fresh({ basePath: "/tenant-b" })
    const fn = jest.fn(async (_req?: unknown) => cfg)
    const source = configSource(fn as AuthConfigInput)
    const req = fakeRequest()
    const resolved = await source(req)
    expect(fn.mock.calls[0]![0]).toBe(req)
    expect(resolved.basePath).toBe("/tenant-b")
  })

  it("an invalid returned configuration is refused when a request resolves it, not at construction", async () => {
    const fn = jest.fn(async () => fresh({ logLevel: "loud" as never }))
    const source = configSource(fn as AuthConfigInput)
    await expect(source(fakeRequest())).rejects.toBeInstanceOf(InvalidOption)
  })

  it("the same returned object shares one resolved configuration", async () => {
    const tenants: Record<string, AuthConfig> = { a: fresh({ basePath: "/a" }), b: fresh({ basePath: "/b" }) }
    const fn = jest.fn((req?: unknown) => tenants[(req as { headers: { host: string } }).headers.host.split(".")[0]!]!)
    const source = configSource(fn as AuthConfigInput)
    const request = (host: string) => ({ url: "/", method: "GET", headers: { host } }) as unknown as GatehouseRequest

    const a1 = await source(request("a.example"))
    const a2 = await source(request("a.example"))
    const b1 = await source(request("b.example"))
    expect(fn).toHaveBeenCalledTimes(3)
    expect(fn.mock.results[0]!.value).toBe(fn.mock.results[1]!.value)
    expect(a2).toBe(a1)
    expect(b1).not.toBe(a1)
    expect([a1.basePath, b1.basePath]).toEqual(["/a", "/b"])
  })

  it("a new object each time is resolved each time", async () => {
    const fn = jest.fn(() => fresh())
    const source = configSource(fn as AuthConfigInput)
    const first = await source(fakeRequest())
    const second = await source(fakeRequest())
    expect(fn.mock.results[0]!.value).not.toBe(fn.mock.results[1]!.value)
    expect(second).not.toBe(first)
  })
})
