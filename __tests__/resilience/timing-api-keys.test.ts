/**
 * Issue #31 — an API key's secret cannot be guessed part by part through timing: a well-formed key
 * that exists nowhere and a key that begins like a real one (its `start` and more) but has a wrong
 * secret take the same path (the whole key's SHA-256 looked up, never a part of it) and the same
 * time. On PostgreSQL (the lookup is a query, where a lookup by prefix would show), against
 * `requireAuth({ apiKey: true })` on an app process of its own with the in-process store. Every key
 * sent is new, so each is a cache miss. REQUESTS of each, one at a time, in pairs of one of each
 * in a random order:
 * (a) a random well-formed key (this app's prefix, a right checksum);
 * (b) the real key's first PREFIX_KEPT characters, the rest of the random part replaced and the
 *     checksum fixed, so it is well-formed: a right prefix with a wrong secret.
 * Asserted: the answers are identical (401 `ApiKeyInvalid`) and the medians are within
 * MEDIAN_BOUND_MS, or within three times the measurement's own standard error (`SIGMAS`) when
 * the machine is too loaded to resolve it (the rule of timing-password.test.ts). Reported beside them, not asserted:
 * (c) the real key, accepted (from the cache after its first use), and (d) a malformed key,
 * refused before any lookup: what a path without the database round trip looks like here.
 */
import { randomInt } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { checksumOf, newKey, CHECKSUM_LENGTH } from "../../lib/api-keys/format.js"
import { ensureBuilt } from "../helpers/build.js"
import { createTables, type TestTables } from "./support/process-db.js"
import { CookieJar, csrf, postForm } from "./support/process-http.js"
import { POSTGRES_URL, SIGMAS, medianDifferenceError, quantile, report, startApp, stopAll, type AppProcess } from "./support/process.js"

const APP = fileURLToPath(new URL("./support/apps/api-keys-app.js", import.meta.url))
/** The bound timing-password.test.ts uses with the same rule (issue #18's). */
const MEDIAN_BOUND_MS = 5
const REQUESTS = 500
/** The app's prefix (the default). */
const PREFIX = "gk_"
/** How much of the real key the look-alikes keep: its `start` (prefix and four) and far more. */
const PREFIX_KEPT = 30
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const OWNER = { id: "u-key-timing", email: "key-timing@example.com" }
const rows: Record<string, string | number>[] = []

let tables: TestTables
let app: AppProcess

/** `real`'s first PREFIX_KEPT characters, a new random rest, and the checksum that makes it well-formed. */
function lookAlike(real: string): string {
  let body = real.slice(0, PREFIX_KEPT)
  const bodyLength = real.length - CHECKSUM_LENGTH
  while (body.length < bodyLength) body += ALPHABET[randomInt(62)]
  // The replaced part could, once in 62^n, equal the real one: then it is not a wrong secret.
  if (body === real.slice(0, bodyLength)) return lookAlike(real)
  return `${body}${checksumOf(body)}`
}

/** One request with `key`: the time to the whole answer, and the answer as compared (status, headers but Date, body). */
async function call(key: string): Promise<{ elapsed: number; status: number; answer: string }> {
  const started = performance.now()
  const response = await fetch(`${app.origin}/api/me`, { headers: { accept: "application/json", authorization: `Bearer ${key}` } })
  const body = await response.text()
  const elapsed = performance.now() - started
  const headers = [...response.headers].filter(([name]) => name !== "date")
  return { elapsed, status: response.status, answer: JSON.stringify([response.status, headers, body]) }
}

beforeAll(async () => {
  await ensureBuilt()
  tables = await createTables("key_timing")
  await tables.adapter.createUser({ id: OWNER.id, email: OWNER.email, name: "Key owner", emailVerified: new Date() })
  app = await startApp("key-timing", { GH_SECRETS: JSON.stringify(["key-timing-secret-0123456789abcdef0123456"]), GH_DB: POSTGRES_URL, GH_TABLE_PREFIX: tables.prefix }, APP)
}, 240_000)

afterAll(async () => {
  await stopAll()
  await tables?.drop()
  report(`API key refusal timing, ms (bound: medians of (a) and (b) within ${MEDIAN_BOUND_MS} ms or ${SIGMAS} times their standard error)`, rows)
})

describe("API keys: an unknown key and a right prefix with a wrong secret", () => {
  test("the same answer and the same median time", async () => {
    const jar = new CookieJar()
    const signedIn = await postForm(app.origin, "/auth/callback/credentials", jar, { csrfToken: await csrf(app.origin, jar), email: OWNER.email, password: "pw", callbackUrl: "/" })
    expect(signedIn.status).toBe(302)
    const created = await postForm(app.origin, "/auth/api-keys/create", jar, { csrfToken: await csrf(app.origin, jar), name: "timed" }, { accept: "application/json" })
    expect(created.status).toBe(200)
    const real = ((await created.json()) as { key: string }).key
    expect(real.startsWith(PREFIX)).toBe(true)
    expect((await call(real)).status).toBe(200)

    const malformed = () => `${PREFIX}${"x".repeat(real.length - PREFIX.length)}`
    // Warm-up: connections, the query plan, the code paths of each case.
    for (let i = 0; i < 20; i++) await call([newKey(PREFIX), lookAlike(real), real, malformed()][i % 4]!)

    const times = { unknown: [] as number[], lookAlike: [] as number[], real: [] as number[], malformed: [] as number[] }
    const answers = new Set<string>()
    const statuses = { real: new Set<number>(), malformed: new Set<number>() }
    for (let i = 0; i < REQUESTS; i++) {
      // One of each per round, in a random order: neither case always follows the other.
      const firstUnknown = randomInt(2) === 0
      for (const unknown of [firstUnknown, !firstUnknown]) {
        const { elapsed, answer } = await call(unknown ? newKey(PREFIX) : lookAlike(real))
        ;(unknown ? times.unknown : times.lookAlike).push(elapsed)
        answers.add(answer)
      }
      // The reported lines, now and then between rounds (the real key well under its 600 a minute).
      if (i % 4 === 1) {
        const accepted = await call(real)
        times.real.push(accepted.elapsed)
        statuses.real.add(accepted.status)
      } else if (i % 4 === 3) {
        const refused = await call(malformed())
        times.malformed.push(refused.elapsed)
        statuses.malformed.add(refused.status)
      }
    }

    const difference = quantile(times.unknown, 0.5) - quantile(times.lookAlike, 0.5)
    const bound = Math.max(MEDIAN_BOUND_MS, SIGMAS * medianDifferenceError(times.unknown, times.lookAlike))
    const line = (label: string, values: number[], extra: Record<string, string | number>) => rows.push({ case: label, n: values.length, p10: quantile(values, 0.1), median: quantile(values, 0.5), p90: quantile(values, 0.9), ...extra })
    line("(a) unknown well-formed key", times.unknown, { "median difference": difference, "bound used": bound })
    line(`(b) real first ${PREFIX_KEPT} chars, wrong secret`, times.lookAlike, { "median difference": difference, "bound used": bound })
    line(`(c) the real key, answered ${[...statuses.real].join(",")} (not asserted)`, times.real, { "median difference": "-", "bound used": "-" })
    line(`(d) malformed, answered ${[...statuses.malformed].join(",")} (no lookup; not asserted)`, times.malformed, { "median difference": "-", "bound used": "-" })

    expect([...statuses.real]).toEqual([200])
    expect([...answers]).toHaveLength(1)
    const [status, , body] = JSON.parse([...answers][0]!) as [number, unknown, string]
    expect(status).toBe(401)
    expect(JSON.parse(body)).toMatchObject({ error: { type: "ApiKeyInvalid" } })
    expect(Math.abs(difference)).toBeLessThanOrEqual(bound)
  })
})
