/**
 * OAUTH-05 (SECURITY-CATALOG.md §7): mix-up between providers. Two honest `oidc-provider`s, `idp`
 * and `idp2`, both know client gh-test (idp2 plays the attacker's AS); ROGUE-OP serves a discovery
 * document that claims idp's issuer. RFC 9207 `iss`, provider-bound check cookies and the
 * metadata issuer must stop every variant before any token request.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { Server } from "node:http"
import type { TestIdp } from "../../helpers/idp.js"
import { credentials } from "../../helpers/app.js"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../adapters/memory/index.js"
import { AUTH_URL, assertSignedOut, buildApp, call, csrfPair, expectSameOrigin, listen, preserveEnv, setCookies } from "../fixtures.js"
import {
  CHECKS, CLIENT_ID, callback, checkNames, expectChecksCleared, expectOAuthError, hitsOf, loginAt, oidcProvider, quietIdp, rows, setsSession,
  startFlow, startHonestIdp, type Jar,
} from "./support.js"
import { startRogueOp, type RogueOp } from "./rogue-op.js"

jest.setTimeout(60_000)
preserveEnv("AUTH_URL")
quietIdp()

let idp: TestIdp
let idp2: TestIdp
let rogue: RogueOp
let adapter: MemoryAdapterInstance
let app: Server
let closeApp: () => Promise<void>

beforeAll(async () => {
  idp = await startHonestIdp(["idp"])
  idp2 = await startHonestIdp(["idp2"])
  rogue = await startRogueOp({ clientId: CLIENT_ID })
  adapter = MemoryAdapter()
  const providers = [credentials(), oidcProvider("idp", idp.issuer), oidcProvider("idp2", idp2.issuer)]
  const listening = await listen(buildApp(AUTH_URL, { adapter, providers }).app)
  app = listening.server
  closeApp = listening.close
})
afterAll(async () => {
  await closeApp()
  await Promise.all([idp.close(), idp2.close(), rogue.close()])
})

/** A flow with `id` whose user logged in at its IdP; the callback URL is captured, not followed. */
async function pending(id: "idp" | "idp2", account = "alice"): Promise<{ jar: Jar; back: URL }> {
  const started = await startFlow(app, id)
  return { jar: started.jar, back: await loginAt(id === "idp" ? idp : idp2, started, id, account) }
}

/** Refused before any token request at either IdP; nothing written; signed out; check cookies cleared. */
async function expectRefusedBeforeTokens(url: URL, jar: Jar): Promise<void> {
  const before = { idp: hitsOf(idp, "/token"), idp2: hitsOf(idp2, "/token"), rows: rows(adapter) }
  const res = await callback(app, url, jar)
  expectOAuthError(res)
  expectChecksCleared(res, checkNames(jar))
  expect({ idp: hitsOf(idp, "/token"), idp2: hitsOf(idp2, "/token") }).toEqual({ idp: before.idp, idp2: before.idp2 })
  expect(rows(adapter)).toEqual(before.rows)
  await assertSignedOut(app, jar.header())
}

describe("OAUTH-05 mix-up", () => {
  it("control: both IdPs advertise RFC 9207 and send iss; a genuine flow with each signs in", async () => {
    for (const [id, server, account] of [["idp", idp, "bob"], ["idp2", idp2, "mallory"]] as const) {
      const metadata = (await (await fetch(`${server.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
      expect(metadata.authorization_response_iss_parameter_supported).toBe(true)
      const { jar, back } = await pending(id, account)
      expect(back.searchParams.get("iss")).toBe(server.issuer)
      const res = await callback(app, back, jar)
      expect(setsSession(res)).toBe(true)
    }
  })

  it("a: idp's code delivered to the idp2 callback with idp2's state (iss names idp)", async () => {
    const attackerFlow = await pending("idp2")
    const honest = await pending("idp")
    const url = new URL(`${AUTH_URL}/callback/idp2`)
    url.searchParams.set("code", honest.back.searchParams.get("code") as string)
    url.searchParams.set("state", attackerFlow.back.searchParams.get("state") as string)
    url.searchParams.set("iss", idp.issuer)
    await expectRefusedBeforeTokens(url, attackerFlow.jar)
  })

  it("a: the same without any iss is refused too (idp2 advertises it)", async () => {
    const attackerFlow = await pending("idp2")
    const honest = await pending("idp")
    const url = new URL(`${AUTH_URL}/callback/idp2`)
    url.searchParams.set("code", honest.back.searchParams.get("code") as string)
    url.searchParams.set("state", attackerFlow.back.searchParams.get("state") as string)
    await expectRefusedBeforeTokens(url, attackerFlow.jar)
  })

  it("b: the idp callback with a state (and cookies) minted for idp2", async () => {
    const honest = await pending("idp")
    const other = await startFlow(app, "idp2")
    const url = new URL(honest.back)
    url.searchParams.set("state", other.location.searchParams.get("state") as string)
    await expectRefusedBeforeTokens(url, other.jar)
  })

  it("c: a genuine idp callback without iss", async () => {
    const { jar, back } = await pending("idp")
    const url = new URL(back)
    url.searchParams.delete("iss")
    await expectRefusedBeforeTokens(url, jar)
  })

  it.each([
    ["with a trailing slash", (issuer: string) => `${issuer}/`],
    ["upper-cased", (issuer: string) => issuer.toUpperCase()],
    ["as localhost", (issuer: string) => issuer.replace("127.0.0.1", "localhost")],
    ["twice (good and bad)", (issuer: string) => [issuer, `${issuer}/`]],
  ])("d: a genuine idp callback with iss %s", async (_name, spell) => {
    const { jar, back } = await pending("idp")
    const url = new URL(back)
    url.searchParams.delete("iss")
    for (const value of ([] as string[]).concat(spell(idp.issuer))) url.searchParams.append("iss", value)
    await expectRefusedBeforeTokens(url, jar)
  })
})

describe("OAUTH-05 e: a discovery document claiming another provider's issuer", () => {
  async function expectSigninRefused(provider: ReturnType<typeof oidcProvider>): Promise<void> {
    const fresh = buildApp(AUTH_URL, { providers: [credentials(), provider] }).app
    for (let attempt = 0; attempt < 2; attempt++) {
      const pair = await csrfPair(fresh)
      const before = hitsOf(rogue, "/authorize")
      const res = await call(fresh, "POST", `/auth/signin/${provider.id}`, { cookie: pair.cookie, form: { csrfToken: pair.token, callbackUrl: "/dashboard" } })
      expect(res.status).toBe(302)
      const url = expectSameOrigin(res.headers.location)
      expect(url.pathname).toBe("/auth/signin")
      expect(url.searchParams.get("error")).toBe("OAuthSignin")
      expect(setCookies(res).map((c) => c.name).filter((name) => (CHECKS as readonly string[]).includes(name))).toEqual([])
      expect(hitsOf(rogue, "/authorize")).toBe(before)
      const json = await call(fresh, "POST", `/auth/signin/${provider.id}`, { cookie: pair.cookie, accept: "application/json", form: { csrfToken: pair.token } })
      expect(json.status).toBe(400)
      expect(json.body.error.type).toBe("OAuthSignin")
    }
  }

  it("discovered from its issuer URL: openid-client's issuer check refuses it at sign-in start", async () => {
    rogue.metadata = { ...rogue.metadata, issuer: idp.issuer }
    try {
      await expectSigninRefused(oidcProvider("rogue", rogue.issuer))
    } finally {
      rogue.reset()
    }
  })

  it("given an explicit wellKnown URL and the issuer: Gatehouse's own issuer check refuses it", async () => {
    rogue.metadata = { ...rogue.metadata, issuer: idp.issuer }
    try {
      await expectSigninRefused(oidcProvider("rogue", rogue.issuer, { wellKnown: `${rogue.issuer}/.well-known/openid-configuration` }))
    } finally {
      rogue.reset()
    }
  })
})
