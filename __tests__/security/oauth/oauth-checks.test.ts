/**
 * OAuth check values (SECURITY-CATALOG.md §7): OAUTH-01 (state missing, mismatched, tampered,
 * expired, from another provider, empty or repeated), OAUTH-02 a–c (PKCE verifier missing or
 * swapped; S256, fresh high-entropy values on every flow) and the OAuth parts of SESS-08 (check
 * cookies are no sessions, a session is no check cookie). The honest IdP is `oidc-provider`.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import type { Server } from "node:http"
import { createHash } from "node:crypto"
import type { TestIdp } from "../../helpers/idp.js"
import { credentials } from "../../helpers/app.js"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../../adapters/memory/index.js"
import {
  AUTH_URL, SESSION, assertSignedOut, buildApp, cookieHeader, listen, mint, open, preserveEnv, sessionOf, setCookies, signIn,
} from "../fixtures.js"
import {
  CALLBACK, NONCE, PKCE, STATE, callback, checkNames, expectChecksCleared, expectOAuthError, hitsOf, loginAt, oidcProvider, quietIdp, rows,
  setsSession, startFlow, startHonestIdp, type Jar,
} from "./support.js"

jest.setTimeout(60_000)
preserveEnv("AUTH_URL")
quietIdp()

let idp: TestIdp
let adapter: MemoryAdapterInstance
let app: Server
let closeApp: () => Promise<void>

beforeAll(async () => {
  idp = await startHonestIdp(["idp", "idp2"])
  adapter = MemoryAdapter()
  const built = buildApp(AUTH_URL, {
    adapter,
    session: { strategy: "cookie" },
    providers: [credentials(), oidcProvider("idp", idp.issuer), oidcProvider("idp2", idp.issuer)],
  })
  const listening = await listen(built.app)
  app = listening.server
  closeApp = listening.close
})
afterAll(async () => {
  await closeApp()
  await idp.close()
})

/** A victim V who started an idp flow and logged in at the IdP as alice; the callback is not yet sent. */
async function victim(account = "alice"): Promise<{ jar: Jar; back: URL }> {
  const started = await startFlow(app, "idp")
  return { jar: started.jar, back: await loginAt(idp, started, "idp", account) }
}

/** The callback URL with some parameters replaced (a value), removed (null) or repeated (array). */
function withParams(back: URL, changes: Record<string, string | null | string[]>): URL {
  const url = new URL(back)
  for (const [key, value] of Object.entries(changes)) {
    url.searchParams.delete(key)
    for (const item of value === null ? [] : Array.isArray(value) ? value : [value]) url.searchParams.append(key, item)
  }
  return url
}

/** Sends a callback that must be refused before any token request: InvalidCheck shown as OAuthCallbackError. */
async function expectRefusedBeforeToken(back: URL, cookie: string, sentChecks: string[]): Promise<void> {
  const before = { token: hitsOf(idp, "/token"), rows: rows(adapter) }
  const res = await callback(app, back, cookie)
  expectOAuthError(res)
  expectChecksCleared(res, sentChecks)
  expect(hitsOf(idp, "/token")).toBe(before.token)
  expect(rows(adapter)).toEqual(before.rows)
  await assertSignedOut(app, cookie)
}

function flipBit(value: string, index: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
  const at = alphabet.indexOf(value[index] as string)
  return value.slice(0, index) + alphabet[at ^ 1] + value.slice(index + 1)
}

describe("positive control", () => {
  it("the genuine callback of V's flow signs V in (so every refusal below is the check's doing)", async () => {
    const { jar, back } = await victim()
    const tokens = hitsOf(idp, "/token")
    const res = jar.absorb(await callback(app, back, jar))
    expect(res.status).toBe(302)
    expect(setsSession(res)).toBe(true)
    expect(hitsOf(idp, "/token")).toBe(tokens + 1)
    expect((await sessionOf(app, jar.header()))?.user).toMatchObject({ email: "alice@example.com" })
  })
})

describe("OAUTH-01 state missing, mismatched, tampered, expired or from another provider", () => {
  /** Attacker A: a flow of their own, logged in at the IdP as mallory, callback captured instead of followed. */
  async function attacker(): Promise<URL> {
    const started = await startFlow(app, "idp")
    return loginAt(idp, started, "idp", "mallory")
  }

  it("a: no state parameter, attacker's code, victim's cookies", async () => {
    const { jar } = await victim()
    const codeA = await attacker()
    await expectRefusedBeforeToken(withParams(codeA, { state: null }), jar.header(), checkNames(jar))
  })

  it("b: the attacker's own code and state, victim's cookies (login CSRF)", async () => {
    const { jar } = await victim()
    const codeA = await attacker()
    await expectRefusedBeforeToken(codeA, jar.header(), checkNames(jar))
  })

  it("c: the victim's genuine state and code, state cookie deleted", async () => {
    const { jar, back } = await victim()
    await expectRefusedBeforeToken(back, jar.header({ [STATE]: undefined }), [PKCE, NONCE])
  })

  it("d: the state cookie with one bit flipped, in each JWE segment", async () => {
    const { jar, back } = await victim()
    const sealed = jar.get(STATE) as string
    const parts = sealed.split(".")
    for (const segment of [0, 2, 3, 4]) {
      const tampered = [...parts]
      tampered[segment] = flipBit(parts[segment] as string, 5)
      await expectRefusedBeforeToken(back, jar.header({ [STATE]: tampered.join(".") }), checkNames(jar))
    }
  })

  it("e: a state cookie minted by a sign-in with idp2, used on /auth/callback/idp", async () => {
    const { jar, back } = await victim()
    const other = await startFlow(app, "idp2")
    const foreignState = other.location.searchParams.get("state") as string
    // Everything else is V's genuine idp flow: only the provider binding stands in the way.
    await expectRefusedBeforeToken(withParams(back, { state: foreignState }), jar.header({ [STATE]: other.jar.get(STATE) }), checkNames(jar))
  })

  it("f: an expired state cookie with the genuine value is refused; the same value unexpired passes", async () => {
    const { jar, back } = await victim()
    const genuine = await open(jar.get(STATE) as string, STATE)
    expect(genuine).toMatchObject({ provider: "idp", value: back.searchParams.get("state") })
    const payload = { value: genuine?.value, provider: genuine?.provider }
    const expired = await mint(payload, { salt: STATE, maxAge: -60 })
    await expectRefusedBeforeToken(back, jar.header({ [STATE]: expired }), checkNames(jar))
    const fresh = await mint(payload, { salt: STATE, maxAge: 600 })
    const res = await callback(app, back, jar.header({ [STATE]: fresh }))
    expect(setsSession(res)).toBe(true)
  })

  it("f: a configured state lifetime goes into both the cookie's Max-Age and the sealed expiry", async () => {
    const short = buildApp(AUTH_URL, { providers: [oidcProvider("idp", idp.issuer)], cookies: { state: { options: { maxAge: 2 } } } }).app
    const started = await startFlow(short, "idp")
    const cookie = setCookies(started.res).find((c) => c.name === STATE)
    expect(cookie?.maxAge).toBe(2)
    const sealed = await open(started.jar.get(STATE) as string, STATE)
    expect(Number(sealed?.exp) - Number(sealed?.iat)).toBe(2)
  })

  it.each([
    ["empty state", (): string[] => [""]],
    ["good then bad", (good: string) => [good, `${good}x`]],
    ["bad then good", (good: string) => [`${good}x`, good]],
    ["good twice", (good: string) => [good, good]],
  ])("g: %s", async (_name, states) => {
    const { jar, back } = await victim()
    const good = back.searchParams.get("state") as string
    await expectRefusedBeforeToken(withParams(back, { state: states(good) }), jar.header(), checkNames(jar))
  })

  it("a JSON client gets 400 with the type, and nothing from the request", async () => {
    const { jar } = await victim()
    const codeA = await attacker()
    const res = await callback(app, codeA, jar, { accept: "application/json" })
    expect(res.status).toBe(400)
    expect(res.body.error.type).toBe("OAuthCallbackError")
    expect(res.text).not.toContain(codeA.searchParams.get("code") as string)
    expect(res.text).not.toContain(codeA.searchParams.get("state") as string)
    expectChecksCleared(res, checkNames(jar))
  })
})

describe("OAUTH-02 PKCE: verifier missing or swapped; S256 only", () => {
  it("a: the verifier cookie deleted is refused before the token request", async () => {
    const { jar, back } = await victim()
    await expectRefusedBeforeToken(back, jar.header({ [PKCE]: undefined }), [STATE, NONCE])
  })

  it("b: the verifier of another flow: the IdP refuses the code, no session", async () => {
    const { jar, back } = await victim()
    const other = await startFlow(app, "idp")
    const before = { token: hitsOf(idp, "/token"), rows: rows(adapter) }
    const cookie = jar.header({ [PKCE]: other.jar.get(PKCE) })
    const res = await callback(app, back, cookie)
    expectOAuthError(res)
    expectChecksCleared(res, checkNames(jar))
    expect(hitsOf(idp, "/token")).toBe(before.token + 1)
    expect(rows(adapter)).toEqual(before.rows)
    await assertSignedOut(app, cookie)
  })

  it("c: S256 challenge of the sealed verifier, state and nonce of >= 128 bits, all distinct over 100 flows", async () => {
    const seen = { challenge: new Set<string>(), state: new Set<string>(), nonce: new Set<string>() }
    for (let i = 0; i < 100; i++) {
      const { location, jar } = await startFlow(app, "idp")
      const params = location.searchParams
      expect(params.getAll("code_challenge_method")).toEqual(["S256"])
      const challenge = params.get("code_challenge") as string
      const state = params.get("state") as string
      const nonce = params.get("nonce") as string
      expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
      for (const value of [state, nonce]) expect(value).toMatch(/^[A-Za-z0-9_-]{22,}$/)
      if (i < 5) {
        // The challenge is SHA-256 of the verifier this browser's cookie holds (RFC 7636 §4.2).
        const verifier = (await open(jar.get(PKCE) as string, PKCE))?.value as string
        expect(verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/)
        expect(createHash("sha256").update(verifier).digest("base64url")).toBe(challenge)
      }
      seen.challenge.add(challenge)
      seen.state.add(state)
      seen.nonce.add(nonce)
    }
    expect([seen.challenge.size, seen.state.size, seen.nonce.size]).toEqual([100, 100, 100])
  })
})

describe("SESS-08 check cookies and sessions are not interchangeable", () => {
  it("state, PKCE, nonce and callback-url values presented as the session cookie read as signed out", async () => {
    const started = await startFlow(app, "idp", { form: { callbackUrl: "/dashboard" } })
    for (const name of [STATE, PKCE, NONCE, CALLBACK]) {
      const value = started.jar.get(name)
      expect(value).toBeDefined()
      await assertSignedOut(app, cookieHeader([[SESSION, value as string]]))
    }
  })

  it("a genuine session (bob's) presented as the state, PKCE or nonce cookie is InvalidCheck before any token request", async () => {
    const { session } = await signIn(app, { username: "bob" })
    const token = session.slice(`${SESSION}=`.length)
    expect(await sessionOf(app, session)).not.toBeNull()
    for (const name of [STATE, PKCE, NONCE]) {
      const { jar, back } = await victim()
      await expectRefusedBeforeToken(back, jar.header({ [name]: token }), checkNames(jar))
    }
  })

  it("one check cookie cannot stand in for another (state value as the nonce cookie, and the reverse)", async () => {
    const { jar, back } = await victim()
    const state = jar.get(STATE) as string
    const nonce = jar.get(NONCE) as string
    await expectRefusedBeforeToken(back, jar.header({ [NONCE]: state }), checkNames(jar))
    await expectRefusedBeforeToken(back, jar.header({ [STATE]: nonce }), checkNames(jar))
    await expectRefusedBeforeToken(back, jar.header({ [PKCE]: state }), checkNames(jar))
  })
})
