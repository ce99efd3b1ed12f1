/**
 * LOAD-02 (SECURITY-CATALOG.md §15) — sign-in churn and bounded in-memory stores. One app in
 * production mode with rate limiting on (the memory store, Gatehouse's default) and the credentials
 * limits raised so the churn itself is not refused; Express `trust proxy` on, so each request's
 * X-Forwarded-For is its client address (the documented Express setting, used here as the test's
 * way of getting many distinct rate-limit keys from one loopback client).
 *
 * 1. Credentials sign-in churn: GET /auth/csrf then POST /auth/callback/credentials, each
 *    sign-in on its own csrf pair; every POST must redirect to the callback URL with a session.
 * 2. Passkey options: GET /auth/webauthn-options/passkey, alternately `?action=authenticate` and
 *    a new user's `?email=` (a registration ceremony); every answer 200 with a challenge cookie.
 * 3. Distinct client keys: failed credentials attempts, each from its own X-Forwarded-For address
 *    and with its own username, so every attempt adds two counters (address and identifier) to
 *    the memory store. The store holds at most 100 000 counters (lib/shared-store/memory.ts), so the heap
 *    is sampled once the store is full and has settled, after DISTINCT_ATTEMPTS (70 000 attempts,
 *    140 000 keys), and again after DISTINCT_MORE (20 000) further attempts: within +10 %. Below the
 *    cap the heap legitimately grows (counters are live until their window ends); measured on the
 *    CI machine: 25.6 MB at 40 000 keys, 39.8 MB at 100 000 (the cap), 44.4 MB at 140 000 (the
 *    Map's table grows once more after ~131 000 insertions, deletions included), then 44.5 MB at
 *    160 000, 180 000 and 200 000 keys: bounded.
 *
 * Each phase: no 5xx, no transport error, heap after GC flat (+10 % over its first sample).
 * Phases 1-2 size: RESILIENCE_REQUESTS (default 20 000 requests each in CI; the catalog asks for
 * 10 000 sign-ins = 20 000 requests, and 10 000 passkey options calls).
 */
import { afterAll, describe, expect, test } from "@jest/globals"
import { heapRow, runWithHeap, type HeapRun } from "./support/process-load.js"
import { growth, mb, report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { csrf, CookieJar, SESSION_COOKIE, locationOf } from "./support/process-http.js"
import { cookiePairs } from "../../bench/lib/http.js"

const REQUESTS = Number(process.env.RESILIENCE_REQUESTS ?? 20_000)
const DISTINCT_ATTEMPTS = Number(process.env.RESILIENCE_DISTINCT_ATTEMPTS ?? 70_000)
const DISTINCT_MORE = Math.round(DISTINCT_ATTEMPTS * 2 / 7)
const CONNECTIONS = 50
const HEAP_BOUND = 10
const SECRETS = JSON.stringify(["load-02-secret-0123456789abcdef0123456789"])
const RAISED = { limit: 1_000_000_000, window: 900 }

let app: AppProcess
const rows: Record<string, string | number>[] = []

afterAll(async () => {
  await stopAll()
  report(`LOAD-02 churn and bounded stores (${CONNECTIONS} connections, heap after GC)`, rows)
})

function expectHealthy(run: HeapRun, requests: number) {
  expect(run.total.requests).toBe(requests)
  expect(run.total.errors).toBe(0)
  expect(run.total.fiveHundreds).toBe(0)
  expect(run.total.reasons).toBeUndefined()
  expect(run.total.bad).toBe(0)
  for (const value of run.growth) expect(value).toBeLessThanOrEqual(HEAP_BOUND)
}

describe("LOAD-02 sign-in churn, many client keys, passkey options", () => {
  test("the app starts with rate limiting on (memory store) and passkeys", async () => {
    app = await startApp("churn", {
      GH_SECRETS: SECRETS,
      GH_DB: "sqlite::memory:",
      GH_MIGRATE: "1",
      GH_STRATEGY: "cookie",
      GH_PASSKEY: "1",
      GH_TRUST_PROXY: "1",
      // Issue #13 limits the passkey options per address too: raised here like the credentials
      // limits, since every request comes from this one loopback client.
      GH_RATE_LIMIT: JSON.stringify({ credentials: { ip: RAISED, identifier: RAISED }, webauthnOptions: { ip: RAISED } }),
    })
  })

  test("credentials sign-in churn: every sign-in gets a session, no 5xx, heap flat", async () => {
    const run = await runWithHeap(
      app,
      REQUESTS,
      (fail) => [
        {
          method: "GET",
          path: "/auth/csrf",
          onResponse: (status: number, body: string, context: Record<string, unknown>, headers: unknown) => {
            context.csrfToken = status === 200 ? (JSON.parse(body) as { csrfToken: string }).csrfToken : ""
            context.cookie = cookiePairs(headers)
            if (status !== 200) fail(`csrf answered ${status}`)
          },
        },
        {
          method: "POST",
          path: "/auth/callback/credentials",
          setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => ({
            ...request,
            headers: { "content-type": "application/x-www-form-urlencoded", cookie: context.cookie },
            body: new URLSearchParams({ csrfToken: String(context.csrfToken), username: "alice", password: "correct-horse", callbackUrl: "/api/me" }).toString(),
          }),
          onResponse: (status: number, _body: string, _context: Record<string, unknown>, headers: unknown) => {
            const location = locationOf(headers)
            if (status !== 302 || !location.endsWith("/api/me")) fail(`sign-in answered ${status} ${location}`)
            else if (!cookiePairs(headers).includes(`${SESSION_COOKIE}=`)) fail("sign-in set no session cookie")
          },
        },
      ],
      { connections: CONNECTIONS, okStatus: [200, 302] },
    )
    rows.push(heapRow(`sign-in churn (${REQUESTS / 2} sign-ins)`, run))
    expectHealthy(run, REQUESTS)
  })

  test("passkey options calls: 200 with a challenge, no 5xx, heap flat", async () => {
    let n = 0
    const run = await runWithHeap(
      app,
      REQUESTS,
      (fail) => [
        {
          method: "GET",
          path: "/auth/webauthn-options/passkey?action=authenticate",
          onResponse: (status: number, body: string, _context: Record<string, unknown>, headers: unknown) => {
            if (status !== 200 || !body.includes('"authenticate"') || !cookiePairs(headers).includes("authjs.challenge=")) fail(`authenticate options answered ${status}`)
          },
        },
        {
          method: "GET",
          setupRequest: (request: Record<string, unknown>) => ({ ...request, path: `/auth/webauthn-options/passkey?email=new-${++n}%40example.com` }),
          onResponse: (status: number, body: string) => {
            if (status !== 200 || !body.includes('"register"')) fail(`register options answered ${status} ${body.slice(0, 80)}`)
          },
        },
      ],
      { connections: CONNECTIONS },
    )
    rows.push(heapRow(`passkey options (${REQUESTS})`, run))
    expectHealthy(run, REQUESTS)
  })

  test("distinct client addresses and usernames: the memory store stays bounded past its cap", async () => {
    const jar = new CookieJar()
    const csrfToken = await csrf(app.origin, jar)
    const cookie = jar.header()
    let n = 0
    const attempt = (fail: (reason: string) => void) => [
      {
        method: "POST",
        path: "/auth/callback/credentials",
        setupRequest: (request: Record<string, unknown>) => {
          const i = ++n
          return {
            ...request,
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              cookie,
              "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
            },
            body: new URLSearchParams({ csrfToken, username: `nobody-${i}`, password: "wrong", callbackUrl: "/api/me" }).toString(),
          }
        },
        onResponse: (status: number, _body: string, _context: Record<string, unknown>, headers: unknown) => {
          const location = locationOf(headers)
          if (status !== 302 || !location.includes("error=CredentialsSignin")) fail(`failed attempt answered ${status} ${location}`)
        },
      },
    ]
    const total = DISTINCT_ATTEMPTS + DISTINCT_MORE
    const run = await runWithHeap(app, total, attempt, { connections: CONNECTIONS, okStatus: [302] }, [DISTINCT_ATTEMPTS / total, 1])
    const row = heapRow(`${total} attempts, ${2 * total} distinct keys`, run)
    rows.push({ ...row, "heap MB (10/50/100%)": `${run.heap.map(mb).join(" / ")} (at cap / end)` })
    expectHealthy(run, total)
    expect(growth(run.heap[0]!, run.heap[1]!)).toBeLessThanOrEqual(HEAP_BOUND)
    // The limiter still works for a real user after the flood: alice signs in.
    const alice = new CookieJar()
    const token = await csrf(app.origin, alice)
    const response = await fetch(`${app.origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: alice.header() },
      body: new URLSearchParams({ csrfToken: token, username: "alice", password: "correct-horse", callbackUrl: "/api/me" }).toString(),
    })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toMatch(/\/api\/me$/)
  })
})
