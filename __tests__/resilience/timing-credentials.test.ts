/**
 * CRED-02 (SECURITY-CATALOG.md §9) — no username enumeration through timing. 300 failed
 * credentials sign-ins, alternating (a) an existing username with a wrong password and (b) an
 * unknown username, sent one at a time (no queueing) with one csrf pair, rate limiting off;
 * reported: median, p10 and p90 of each. Fails when the medians differ by more than
 * MEDIAN_BOUND_MS = 25 ms (the catalog's bound), or when the two answers differ in any way.
 *
 * Runs, each on its own app process:
 * - `plain`: the example app's `authorize` (examples/basic: a lookup and a constant-time string
 *   comparison, no hashing). Measures Gatehouse's own path, the same for both (csrf check,
 *   authorize, CredentialsSignin redirect): asserted.
 * - `scrypt + dummy hash`: stored scrypt hashes; an unknown username verifies a dummy hash so both
 *   answers cost one scrypt: asserted.
 * - `scrypt, no dummy hash` (control, 100 requests): unknown usernames return at once. Shows the
 *   run can see a real difference (asserted > 10 ms, about one scrypt); not a Gatehouse property.
 */
import { afterAll, describe, expect, test } from "@jest/globals"
import { quantile, report, startApp, stopAll } from "./support/process.js"
import { CookieJar, csrf } from "./support/process-http.js"

const MEDIAN_BOUND_MS = 25
const SECRETS = JSON.stringify(["cred-02-secret-0123456789abcdef0123456789"])
const rows: Record<string, string | number>[] = []

afterAll(async () => {
  await stopAll()
  report(`CRED-02 credentials failure timing, ms (bound: medians within ${MEDIAN_BOUND_MS} ms)`, rows)
})

interface Timing {
  existing: number[]
  unknown: number[]
  answers: Set<string>
}

async function measure(mode: string, requests: number): Promise<Timing & { difference: number }> {
  const app = await startApp(`timing-${mode}`, { GH_SECRETS: SECRETS, GH_AUTHORIZE: mode })
  const jar = new CookieJar()
  const csrfToken = await csrf(app.origin, jar)
  const cookie = jar.header()
  const attempt = async (username: string) => {
    const started = performance.now()
    const response = await fetch(`${app.origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, username, password: "wrong-password", callbackUrl: "/api/me" }).toString(),
    })
    const body = await response.text()
    const elapsed = performance.now() - started
    const headers = [...response.headers].filter(([name]) => !["date", "content-length"].includes(name))
    // The sign-in page the refusal leads to keeps what was typed (login_hint): the answers may
    // differ by the username each typed, and by nothing else.
    return { elapsed, answer: JSON.stringify([response.status, headers, body]).replaceAll(encodeURIComponent(username), "<typed>") }
  }
  for (let i = 0; i < 20; i++) await attempt(i % 2 ? "alice" : "nobody") // warm-up
  const timing: Timing = { existing: [], unknown: [], answers: new Set() }
  for (let i = 0; i < requests; i++) {
    const existing = i % 2 === 0
    const { elapsed, answer } = await attempt(existing ? "alice" : `nobody-${i}`)
    ;(existing ? timing.existing : timing.unknown).push(elapsed)
    timing.answers.add(answer)
  }
  await app.stop()
  const difference = quantile(timing.existing, 0.5) - quantile(timing.unknown, 0.5)
  for (const [label, values] of [["existing user, wrong password", timing.existing], ["unknown user", timing.unknown]] as const) {
    rows.push({ authorize: mode, case: label, n: values.length, p10: quantile(values, 0.1), median: quantile(values, 0.5), p90: quantile(values, 0.9), "median difference": difference })
  }
  return { ...timing, difference }
}

describe("CRED-02 failures for existing and unknown usernames take the same time", () => {
  test("the example's authorize (Gatehouse's own path): same answer, medians within the bound", async () => {
    const run = await measure("plain", 300)
    expect(run.answers.size).toBe(1)
    expect(Math.abs(run.difference)).toBeLessThanOrEqual(MEDIAN_BOUND_MS)
  })

  test("scrypt with a dummy hash for unknown users: same answer, medians within the bound", async () => {
    const run = await measure("scrypt", 300)
    expect(run.answers.size).toBe(1)
    expect(Math.abs(run.difference)).toBeLessThanOrEqual(MEDIAN_BOUND_MS)
  })

  test("control: scrypt without a dummy hash shows a difference the run can see", async () => {
    const run = await measure("scrypt-naive", 100)
    expect(run.answers.size).toBe(1)
    expect(run.difference).toBeGreaterThan(10)
  })
})
