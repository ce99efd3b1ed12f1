/**
 * LOAD-03 (SECURITY-CATALOG.md §15) — hostile traffic does not cost more than it should. One app
 * (JWE cookie sessions) gets, interleaved on every connection: genuine session reads, session
 * reads with a tampered JWE (one bit flipped in one of the five segments, SESS-01 style),
 * session reads with random 4 kB cookies (bare base64url, or five dot-separated random segments),
 * and tampered cookies on GET /api/me behind requireAuth.
 *
 * Asserted: zero 5xx and zero transport errors; every genuine read names alice; no hostile request
 * is ever answered with a session (GET /auth/session `null`, /api/me 401); the app's heap after GC
 * at 10/50/100 % within +10 % of the first sample; and log volume bounded: at most
 * LOG_LINE_BOUND stderr lines for the whole run whatever its length (bad cookies read as signed
 * out, README "Sessions"; they are not an error worth a log line each).
 *
 * Requests: RESILIENCE_REQUESTS, default 20 000 (CI), a quarter of each kind; the catalog's
 * 60 000 is RESILIENCE_REQUESTS=80000.
 */
import { randomBytes, randomInt } from "node:crypto"
import { afterAll, describe, expect, test } from "@jest/globals"
import { heapRow, runWithHeap } from "./support/process-load.js"
import { report, startApp, stopAll } from "./support/process.js"
import { SESSION_COOKIE, readSession, signedIn } from "./support/process-http.js"

const REQUESTS = Number(process.env.RESILIENCE_REQUESTS ?? 20_000)
const CONNECTIONS = 50
const HEAP_BOUND = 10
const LOG_LINE_BOUND = 10
const SECRETS = JSON.stringify(["load-03-secret-0123456789abcdef0123456789"])

afterAll(async () => {
  await stopAll()
})

/**
 * The genuine token with one bit of one segment's bytes flipped (the empty encrypted-key segment of
 * `dir` gets a byte instead). Flipped in the decoded bytes, not in the text: changing the last
 * character of a base64url segment may only touch its unused padding bits, which decode to the
 * same bytes (the same token, rightly accepted: every base64url decoder, jose's included, ignores
 * those bits).
 */
function tamper(token: string): string {
  const segments = token.split(".")
  const index = randomInt(segments.length)
  const bytes = Buffer.from(segments[index]!, "base64url")
  if (!bytes.length) {
    segments[index] = Buffer.from([randomInt(256)]).toString("base64url")
    return segments.join(".")
  }
  const at = randomInt(bytes.length)
  bytes[at] = bytes[at]! ^ (1 << randomInt(8))
  segments[index] = bytes.toString("base64url")
  return segments.join(".")
}

function random4k(): string {
  if (randomInt(2) === 0) return randomBytes(3000).toString("base64url")
  return Array.from({ length: 5 }, () => randomBytes(600).toString("base64url")).join(".")
}

describe("LOAD-03 tampered and random cookies mixed with genuine reads", () => {
  test("zero 5xx, genuine reads succeed, no hostile session, heap flat, log volume bounded", async () => {
    const app = await startApp("hostile", { GH_SECRETS: SECRETS })
    const jar = await signedIn(app.origin, app.origin, "alice", "correct-horse")
    const token = jar.cookies.get(SESSION_COOKIE) as string
    const genuine = jar.header()
    expect((await readSession(app.origin, jar)).body?.user?.email).toBe("alice@example.com")
    const tampered = Array.from({ length: 500 }, () => tamper(token)).filter((value) => value !== token)
    const linesBefore = app.stderrLines()
    const hostile = (make: () => string) => (request: Record<string, unknown>) => ({ ...request, headers: { cookie: `${SESSION_COOKIE}=${make()}` } })
    const pickTampered = () => tampered[randomInt(tampered.length)]!

    const run = await runWithHeap(
      app,
      REQUESTS,
      (fail) => [
        {
          method: "GET",
          path: "/auth/session",
          headers: { cookie: genuine },
          onResponse: (status: number, body: string) => {
            if (status !== 200 || !body.includes("alice@example.com")) fail(`genuine read answered ${status}`)
          },
        },
        {
          method: "GET",
          path: "/auth/session",
          setupRequest: hostile(pickTampered),
          onResponse: (status: number, body: string) => {
            if (status !== 200 || body.trim() !== "null") fail(`tampered read answered ${status} ${body.slice(0, 40)}`)
          },
        },
        {
          method: "GET",
          path: "/auth/session",
          setupRequest: hostile(random4k),
          onResponse: (status: number, body: string) => {
            if (status !== 200 || body.trim() !== "null") fail(`random 4 kB read answered ${status} ${body.slice(0, 40)}`)
          },
        },
        {
          method: "GET",
          path: "/api/me",
          setupRequest: hostile(pickTampered),
          onResponse: (status: number) => {
            if (status !== 401) fail(`tampered /api/me answered ${status}`)
          },
        },
      ],
      { connections: CONNECTIONS, okStatus: [200, 401] },
    )
    const logLines = app.stderrLines() - linesBefore
    const row = heapRow("genuine + tampered + random 4 kB", run)
    report("LOAD-03 hostile cookies", [{ ...row, "stderr lines": logLines, "tampered variants": tampered.length }])
    if (logLines) console.log(`LOAD-03 app stderr (first lines):\n${app.stderr().split("\n").slice(linesBefore, linesBefore + 10).join("\n")}`)

    expect(run.total.requests).toBe(REQUESTS)
    expect(run.total.errors).toBe(0)
    expect(run.total.fiveHundreds).toBe(0)
    expect(run.total.reasons).toBeUndefined()
    expect(run.total.bad).toBe(0)
    for (const value of run.growth) expect(value).toBeLessThanOrEqual(HEAP_BOUND)
    expect(logLines).toBeLessThanOrEqual(LOG_LINE_BOUND)
    expect((await readSession(app.origin, jar)).body?.user?.email).toBe("alice@example.com")
    await app.stop()
  })
})
