/** Which redirect targets count as internal (lib/outbound/address.ts), and the `outbound` option's checks. */
import { describe, expect, it } from "@jest/globals"
import { configuredHosts, isInternalAddress } from "../../../lib/outbound/address.js"
import { DEFAULT_OUTBOUND, outboundLimits } from "../../../lib/outbound/options.js"

describe("internal addresses", () => {
  it.each(["127.0.0.1", "127.0.0.2", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "[::1]", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254"])("%s is internal", (address) => {
    expect(isInternalAddress(address)).toBe(true)
  })
  it.each(["8.8.8.8", "93.184.216.34", "2606:4700::6810:84e5", "::ffff:8.8.8.8", "example.com"])("%s is not", (address) => {
    expect(isInternalAddress(address)).toBe(false)
  })
  it("configured hosts are read from the provider's URLs, IPv6 without brackets, lower case", () => {
    expect([...configuredHosts(["http://127.0.0.1:3000/x", "https://IdP.Example/.well-known", "http://[::1]:9/", undefined, "not a url"])]).toEqual(["127.0.0.1", "idp.example", "::1"])
  })
})

describe("the outbound option", () => {
  it("defaults: 1 MiB, 5 s to connect, 15 s in all", () => {
    expect(outboundLimits(undefined)).toEqual({ maxResponseSize: 1048576, connectTimeout: 5000, timeout: 15000 })
    expect(outboundLimits({ timeout: 2000 })).toEqual({ ...DEFAULT_OUTBOUND, timeout: 2000 })
  })
  it.each([[{ timeout: 0 }, "x.timeout"], [{ maxResponseSize: 1.5 }, "x.maxResponseSize"], [{ retries: 1 }, "x.retries"], ["fast", "x must be an object"]])("%j is refused naming %s", (value, text) => {
    expect(() => outboundLimits(value, "x")).toThrow(expect.objectContaining({ type: "InvalidOption", message: expect.stringContaining(text) }) as unknown as Error)
  })
})
