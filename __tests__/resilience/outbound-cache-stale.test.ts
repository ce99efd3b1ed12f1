/**
 * Issue #13, stale-while-revalidate of discovery documents and JWKS: a copy past its minute (and
 * less than a day old) answers at once while one background request refreshes it, so an issuer
 * that hangs does not hold sign-ins up for the provider's timeout; an ID token signed with a key
 * the copy lacks still waits for the refetch (bounded by the timeout). The issuer is a real
 * OpenID provider that signs ID tokens and counts its requests (support/oidc-rogue.ts). Timings
 * are compared with the configured timeout with a wide margin, never asserted precisely.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { makeApp, reserve, testConfig } from "../helpers/app.js"
import { shiftClock } from "./support/clock.js"
import { finishAt, startAt, type Started } from "./support/oauth-flow.js"
import { startOidcRogue, type CodeStore, type OidcRogue } from "./support/oidc-rogue.js"

/** The providers' total timeout for each outbound call. */
const TIMEOUT_MS = 5_000

const codes: CodeStore = new Map()
const closing: (() => Promise<void>)[] = []

afterEach(async () => {
  jest.useRealTimers()
  for (const close of closing.splice(0).reverse()) await close()
})

async function issuerUp(): Promise<OidcRogue> {
  const op = await startOidcRogue(codes)
  closing.push(() => op.close())
  return op
}

/** A fresh app (its own configuration objects, a cold openid-client cache) whose provider `rogue` is the issuer `op`. */
async function appFor(op: OidcRogue) {
  const site = await reserve()
  site.attach(
    makeApp(testConfig({ providers: [{ id: "rogue", name: "Rogue", type: "oidc", issuer: op.url, clientId: "rogue-client", clientSecret: "s", outbound: { timeout: TIMEOUT_MS } }] })),
  )
  closing.push(() => site.close())
  return site
}

/** Sign-ins started at `site`, up to the issuer's approval, to finish wherever the test likes. */
function startMany(site: { url: string }, count: number): Promise<Started[]> {
  return Promise.all(Array.from({ length: count }, () => startAt(site.url, "rogue")))
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const begun = performance.now()
  const result = await work()
  return { result, ms: performance.now() - begun }
}

describe("a stale copy answers at once; the issuer is asked in the background", () => {
  it("20 parallel callbacks at a fresh app, discovery and JWKS ten minutes old, the issuer hanging: all sign in well within the timeout; one background request each", async () => {
    const issuer = await issuerUp()
    const warm = await appFor(issuer)
    const [first, ...flows] = await startMany(warm, 21)
    // Fresh copies of the discovery document and the JWKS.
    expect((await finishAt(warm.url, first as Started)).signedIn).toBe(true)
    expect([issuer.counts.discovery, issuer.counts.jwks]).toEqual([1, 1])

    shiftClock(10 * 60_000)
    issuer.hang = true
    const cold = await appFor(issuer)
    const { result: outcomes, ms } = await timed(() => Promise.all(flows.map((flow) => finishAt(cold.url, flow))))
    expect(outcomes.filter((outcome) => outcome.signedIn)).toHaveLength(20)
    // Waiting on the hanging issuer would take the timeout at least once (discovery, then JWKS).
    expect(ms).toBeLessThan(TIMEOUT_MS / 2)
    await new Promise((settle) => setTimeout(settle, 300))
    expect([issuer.counts.discovery, issuer.counts.jwks]).toEqual([2, 2])
  })
})

describe("an ID token signed with a key the copy lacks waits for the refetch", () => {
  it("the issuer rotated its key: the callback a minute later fetches the new JWKS and signs in; with the issuer hanging it is refused within the timeout", async () => {
    const issuer = await issuerUp()
    const app = await appFor(issuer)
    const flows = await startMany(app, 3)
    expect((await finishAt(app.url, flows[0] as Started)).signedIn).toBe(true)
    expect(issuer.counts.jwks).toBe(1)

    // openid-client asks again for an unknown kid once its copy is a minute old.
    shiftClock(61_000)
    await issuer.rotate()
    const rotated = await finishAt(app.url, flows[1] as Started)
    expect(rotated.signedIn).toBe(true)
    expect(issuer.counts.jwks).toBe(2)

    shiftClock(61_000)
    await issuer.rotate()
    issuer.hang = true
    const { result: refused, ms } = await timed(() => finishAt(app.url, flows[2] as Started))
    expect(refused.signedIn).toBe(false)
    expect(refused.location.searchParams.get("error")).toBe("OAuthCallbackError")
    expect(issuer.counts.jwks).toBe(3)
    // It waited for the refetch (not answered from the copy at once), and no longer than the timeout allows.
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 1_000)
    expect(ms).toBeLessThan(3 * TIMEOUT_MS)
  })
})
