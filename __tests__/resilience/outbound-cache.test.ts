/**
 * Issue #13, discovery and JWKS caches: one request in flight per issuer however many sign-ins
 * wait on it, a JWKS refetch at most once a minute per issuer on an unknown `kid`, and the last
 * good documents served while the issuer's metadata endpoints are down. The issuer is a real
 * OpenID provider that signs ID tokens (support/oidc-rogue.ts) and counts its requests. Sign-ins
 * start at one app and finish at a fresh one (a cold cache, as after a deploy).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { makeApp, reserve, testConfig } from "../helpers/app.js"
import { startOidcRogue, type CodeStore, type OidcRogue } from "./support/oidc-rogue.js"
import { finishAt, startAt, type Started } from "./support/oauth-flow.js"
import { shiftClock } from "./support/clock.js"

const codes: CodeStore = new Map()
let starter: OidcRogue
let issuer: OidcRogue
let front: Awaited<ReturnType<typeof reserve>>

/** A fresh app (its own configuration objects) whose provider `rogue` is the issuer `op`. */
async function appFor(op: OidcRogue) {
  const site = await reserve()
  site.attach(makeApp(testConfig({ providers: [{ id: "rogue", name: "Rogue", type: "oidc", issuer: op.url, clientId: "rogue-client", clientSecret: "s" }] })))
  return site
}

async function startMany(count: number): Promise<Started[]> {
  const started: Started[] = []
  for (let i = 0; i < count; i += 20) started.push(...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => startAt(front.url, "rogue")))))
  return started
}

beforeAll(async () => {
  starter = await startOidcRogue(codes)
  issuer = await startOidcRogue(codes)
  front = await appFor(starter)
})

afterAll(async () => {
  await front.close()
  await starter.close()
  await issuer.close()
})

afterEach(() => {
  jest.useRealTimers()
})

describe("discovery and JWKS: one request in flight per issuer", () => {
  const apps: Awaited<ReturnType<typeof reserve>>[] = []
  afterAll(async () => {
    for (const app of apps) await app.close()
  })

  it("200 parallel callbacks against a slow issuer make exactly one discovery and one JWKS request, and all sign in", async () => {
    const started = await startMany(200)
    issuer.delay = 1_000
    const cold = await appFor(issuer)
    apps.push(cold)
    const outcomes = await Promise.all(started.map((flow) => finishAt(cold.url, flow)))
    issuer.delay = 0
    expect(outcomes.filter((outcome) => outcome.signedIn)).toHaveLength(200)
    expect([issuer.counts.discovery, issuer.counts.jwks, issuer.counts.token]).toEqual([1, 1, 200])
  }, 120_000)

  it("a forged kid on callbacks at three fresh apps of the same issuer: refused, and no JWKS request within the minute", async () => {
    const before = issuer.counts.jwks
    issuer.kid = "forged"
    try {
      const started = await startMany(30)
      for (let i = 0; i < 3; i++) {
        const app = await appFor(issuer)
        apps.push(app)
        const outcomes = await Promise.all(started.slice(i * 10, i * 10 + 10).map((flow) => finishAt(app.url, flow)))
        for (const outcome of outcomes) {
          expect(outcome.signedIn).toBe(false)
          expect(outcome.location.searchParams.get("error")).toBe("OAuthCallbackError")
        }
      }
      expect(issuer.counts.jwks).toBe(before)
    } finally {
      issuer.kid = "k1"
    }
  })

  it("a minute later, a flood of forged kids makes one JWKS refetch, not one per callback", async () => {
    const before = issuer.counts.jwks
    const started = await startMany(40)
    shiftClock(61_000)
    issuer.kid = "forged"
    try {
      const app = await appFor(issuer)
      apps.push(app)
      const outcomes = await Promise.all(started.map((flow) => finishAt(app.url, flow)))
      expect(outcomes.every((outcome) => !outcome.signedIn)).toBe(true)
      expect(issuer.counts.jwks - before).toBe(1)
    } finally {
      issuer.kid = "k1"
    }
  })
})

describe("stale-while-revalidate when the issuer's metadata is down", () => {
  it("discovery and JWKS answering 503 after their minute: a fresh app still signs in with the last good copies, and asked again", async () => {
    const started = await startMany(3)
    shiftClock(10 * 60_000)
    issuer.down = true
    const before = { ...issuer.counts }
    const app = await appFor(issuer)
    try {
      for (const flow of started) expect((await finishAt(app.url, flow)).signedIn).toBe(true)
      // Revalidation was tried (once each), and failed over to the copies in hand.
      expect([issuer.counts.discovery - before.discovery, issuer.counts.jwks - before.jwks]).toEqual([1, 1])
    } finally {
      issuer.down = false
      await app.close()
    }
  })

  it("an issuer never seen and down: the sign-in fails with a named error (nothing stale to serve)", async () => {
    const other = await startOidcRogue(codes)
    other.down = true
    const app = await appFor(other)
    try {
      const [flow] = await startMany(1)
      const outcome = await finishAt(app.url, flow as Started)
      expect(outcome.signedIn).toBe(false)
      expect(outcome.location.pathname).toBe("/auth/signin")
      expect(outcome.location.searchParams.get("error")).toBe("OAuthCallbackError")
    } finally {
      await app.close()
      await other.close()
    }
  })
})
