/**
 * OAUTH-04 (SECURITY-CATALOG.md §7): ID token validation, through ROGUE-OP (state, PKCE and nonce
 * handled genuinely by the app; only the `id_token` is crafted): nonce, aud, azp, iss, exp, iat,
 * alg, signature, kid, sub. Also OAUTH-02 d (S256 whatever the metadata advertises).
 *
 * OAUTH-04 m (`max_age` requested, `auth_time` missing) is not applicable: Gatehouse has no
 * `max_age` support (nothing passes a `maxAge` to openid-client's code grant), so no flow of this
 * build requests or enforces it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { Server } from "node:http"
import { CompactSign, generateKeyPair } from "jose"
import { credentials } from "../../helpers/app.js"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../adapters/memory/index.js"
import { AUTH_URL, assertSignedOut, buildApp, listen, preserveEnv, sessionOf } from "../fixtures.js"
import {
  CLIENT_ID, CLIENT_SECRET, callback, checkNames, expectChecksCleared, expectOAuthError, hitsOf, oidcProvider, rows, setsSession, startFlow,
} from "./support.js"
import { ROGUE_KID, startRogueOp, type MintContext, type RogueOp } from "./rogue-op.js"

jest.setTimeout(60_000)
preserveEnv("AUTH_URL")

let rogue: RogueOp
let adapter: MemoryAdapterInstance
let app: Server
let closeApp: () => Promise<void>

beforeAll(async () => {
  rogue = await startRogueOp({ clientId: CLIENT_ID })
  adapter = MemoryAdapter()
  const listening = await listen(buildApp(AUTH_URL, { adapter, providers: [credentials(), oidcProvider("rogue", rogue.issuer)] }).app)
  app = listening.server
  closeApp = listening.close
})
afterEach(() => rogue.reset())
afterAll(async () => {
  await closeApp()
  await rogue.close()
})

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** One sign-in through ROGUE-OP: start, authorize (straight back), callback. */
async function rogueFlow() {
  const started = await startFlow(app, "rogue")
  const back = await rogue.authorize(started.location.href)
  const sent = checkNames(started.jar)
  const before = { token: hitsOf(rogue, "/token"), jwks: hitsOf(rogue, "/jwks"), rows: rows(adapter) }
  const res = started.jar.absorb(await callback(app, back, started.jar))
  return { res, jar: started.jar, sent, before, jwks: hitsOf(rogue, "/jwks") - before.jwks }
}

/** NAMED-4XX, nothing written, SIGNED-OUT, nothing of the token reflected, JWKS fetched at most twice. */
async function expectRefused(mint: RogueOp["mint"], reflected: string[] = []): Promise<void> {
  rogue.mint = mint
  const flow = await rogueFlow()
  const url = expectOAuthError(flow.res)
  for (const value of reflected) expect(decodeURIComponent(url.href)).not.toContain(value)
  expectChecksCleared(flow.res, flow.sent)
  expect(hitsOf(rogue, "/token")).toBe(flow.before.token + 1)
  expect(rows(adapter)).toEqual(flow.before.rows)
  expect(flow.jwks).toBeLessThanOrEqual(2)
  await assertSignedOut(app, flow.jar.header())
}

const withClaims = (changes: Record<string, unknown>) => (context: MintContext) => context.sign({ ...context.claims, ...changes })

describe("harness", () => {
  it("control: a well-formed id_token from ROGUE-OP signs in", async () => {
    const flow = await rogueFlow()
    expect(flow.res.status).toBe(302)
    expect(setsSession(flow.res)).toBe(true)
    expect((await sessionOf(app, flow.jar.header()))?.user).toMatchObject({ email: "rogue@example.com", name: "Rogue User" })
  })
})

describe("OAUTH-04 ID token validation", () => {
  it("a: no nonce", () => expectRefused(withClaims({ nonce: undefined })))

  it("b: the nonce of another flow", async () => {
    const other = await startFlow(app, "rogue")
    const foreign = other.location.searchParams.get("nonce") as string
    await expectRefused(withClaims({ nonce: foreign }), [foreign])
  })

  it("c: aud of another client", () => expectRefused(withClaims({ aud: "other-client" }), ["other-client"]))

  it("d: aud with a second audience and no azp", () => expectRefused(withClaims({ aud: [CLIENT_ID, "other"] })))

  it("d: aud with a second audience and azp of the other one", () => expectRefused(withClaims({ aud: [CLIENT_ID, "other"], azp: "other" })))

  it("e: iss with a trailing slash", () => expectRefused(withClaims({ iss: `${rogue.issuer}/` })))

  it("e: iss of another provider", () => expectRefused(withClaims({ iss: "http://127.0.0.1:4000" }), ["127.0.0.1:4000"]))

  it("f: expired ten minutes ago", () => expectRefused((context) => context.sign({ ...context.claims, exp: Number(context.claims.iat) - 600 })))

  it("g: issued a day in the future", () => expectRefused((context) => context.sign({ ...context.claims, iat: Number(context.claims.iat) + 86_400, exp: Number(context.claims.iat) + 86_700 })))

  it("h: alg none (unsigned)", () => expectRefused((context) => `${b64({ alg: "none", typ: "JWT" })}.${b64(context.claims)}.`))

  it("i: HS256 keyed with the client secret while RS256 is the provider's algorithm", () =>
    expectRefused((context) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(context.claims))).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(CLIENT_SECRET)),
    ))

  it("j: RS256 with one signature byte flipped", () =>
    expectRefused(async (context) => {
      const [header, payload, signature] = (await context.sign(context.claims)).split(".") as [string, string, string]
      const bytes = Buffer.from(signature, "base64url")
      bytes[10] = (bytes[10] as number) ^ 0x01
      return `${header}.${payload}.${bytes.toString("base64url")}`
    }))

  it("j: RS256 signed by a key the provider never published, under the published kid", () =>
    expectRefused(async (context) => {
      const { privateKey } = await generateKeyPair("RS256")
      return new CompactSign(new TextEncoder().encode(JSON.stringify(context.claims))).setProtectedHeader({ alg: "RS256", kid: ROGUE_KID, typ: "JWT" }).sign(privateKey)
    }))

  it("k: an unknown kid (the JWKS never has it)", () =>
    expectRefused(async (context) => {
      const { privateKey } = await generateKeyPair("RS256")
      return new CompactSign(new TextEncoder().encode(JSON.stringify(context.claims))).setProtectedHeader({ alg: "RS256", kid: "unknown-kid", typ: "JWT" }).sign(privateKey)
    }))

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["a number", 123],
    ["10 kB", "s".repeat(10_240)],
  ])("l: sub %s", (_name, sub) => expectRefused(withClaims({ sub })))
})

describe("OAUTH-02 d: PKCE is S256 whatever the provider's metadata says", () => {
  it.each([
    ["omits code_challenge_methods_supported", undefined],
    ["advertises only plain", ["plain"]],
  ])("metadata %s", async (_name, methods) => {
    rogue.metadata = { ...rogue.metadata, code_challenge_methods_supported: methods }
    // A fresh configuration object: discovery runs again for it.
    const fresh = buildApp(AUTH_URL, { adapter: MemoryAdapter(), providers: [oidcProvider("rogue", rogue.issuer)] }).app
    const { location } = await startFlow(fresh, "rogue")
    expect(location.origin).toBe(rogue.issuer)
    expect(location.searchParams.getAll("code_challenge_method")).toEqual(["S256"])
    expect(location.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(location.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{22,}$/)
    expect(location.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{22,}$/)
  })
})
