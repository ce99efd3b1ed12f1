/**
 * Issue #24 (problem 10): a back-channel logout token that is garbage, or that names another
 * issuer, is refused with 400 (`InvalidLogoutToken`) before any outbound request, even when the
 * provider's issuer is unreachable (a closed port on 127.0.0.1). Before the fix the token went
 * straight to discovery and key fetching, and the unreachable issuer made it a 500.
 */
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { jest } from "@jest/globals"
import { customFetch } from "../../lib/core/symbols.js"
import OIDC from "../../lib/providers/oidc.js"
import { makeApp, request, testConfig } from "../helpers/app.js"

const EVENT = "http://schemas.openid.net/event/backchannel-logout"

/** A loopback port nothing listens on (opened, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer()
  server.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
  const { port } = server.address() as AddressInfo
  await new Promise((closed) => server.close(closed))
  return port
}

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
const jwt = (header: unknown, claims: unknown) => `${part(header)}.${part(claims)}.${Buffer.from("not-a-signature").toString("base64url")}`

async function site() {
  const issuer = `http://127.0.0.1:${await closedPort()}`
  // Every request the provider's fetch is asked to make, sent on to the real (closed) port.
  const outbound: string[] = []
  const recorded = ((input: string | URL | Request, init?: RequestInit) => {
    outbound.push(input instanceof Request ? input.url : String(input))
    return fetch(input, init)
  }) as typeof fetch
  const errors = jest.fn<(error: Error) => void>()
  const provider = OIDC({ id: "idp", issuer, clientId: "client", clientSecret: "secret", [customFetch]: recorded } as Parameters<typeof OIDC>[0])
  const app = makeApp(testConfig({ providers: [provider], logger: { error: errors } }))
  const post = (token: string) => request(app).post("/auth/backchannel-logout/idp").type("form").send({ logout_token: token })
  const claims = (extra: Record<string, unknown> = {}) => ({ iss: issuer, aud: "client", iat: Math.floor(Date.now() / 1000), jti: "j-1", sid: "s-1", events: { [EVENT]: {} }, ...extra })
  return { issuer, outbound, errors, post, claims }
}

describe("back-channel logout with the issuer unreachable", () => {
  const garbage: Array<[string, (claims: (extra?: Record<string, unknown>) => Record<string, unknown>) => string]> = [
    ["a word", () => "garbage"],
    ["three parts that are not JSON", () => "abc.def.ghi"],
    ["five parts (an encrypted token)", () => "a.b.c.d.e"],
    ["characters outside base64url", (claims) => `${jwt({ alg: "RS256" }, claims())}+/=`],
    ["a header without alg", (claims) => jwt({ typ: "logout+jwt" }, claims())],
    ["alg none", (claims) => jwt({ alg: "none" }, claims())],
    ["claims that are a JSON array", () => `${part({ alg: "RS256" })}.${part([1, 2])}.c2ln`],
    ["no iss", (claims) => jwt({ alg: "RS256" }, claims({ iss: undefined }))],
    ["another issuer", (claims) => jwt({ alg: "RS256" }, claims({ iss: "https://idp.evil.example" }))],
    ["no events claim", (claims) => jwt({ alg: "RS256" }, claims({ events: undefined }))],
  ]

  test.each(garbage)("%s: 400 InvalidLogoutToken, and nothing is fetched", async (_name, make) => {
    const { outbound, errors, post, claims } = await site()
    const answer = await post(make(claims))
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe("invalid_request")
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ type: "InvalidLogoutToken" }))
    expect(outbound).toEqual([])
  })

  test("a token of the right shape from the provider's issuer is taken further: its keys are looked for at the issuer", async () => {
    const { issuer, outbound, post, claims } = await site()
    await post(jwt({ alg: "RS256", kid: "k" }, claims()))
    expect(outbound.length).toBeGreaterThan(0)
    expect(outbound[0]).toContain(issuer)
  })
})
