/**
 * The checks and the bounded load of the Redis failover runs (issue #34), shared by the Cluster
 * and the Sentinel suites. Two app processes A and B (support/apps/redis-topology-app.js) share
 * the store; the checks are the store's three jobs across processes:
 *
 *   rate limits     five wrong passwords alternating A/B for one name, then 429 on both
 *                   (each process's memory alone would count 2 or 3: only a shared count refuses)
 *   claims          a passkey challenge from A completes on B once; its replay on A is refused
 *   revocations     "sign out everywhere else" on A ends the other session on B, not the asking one
 *
 * `failoverLoad` runs requests of all three kinds, three at a time, loopback only, until told to
 * stop (or a hard cap), and records every answer: its kind, outcome and time. Outcomes are named:
 * "ok", the documented errors ("StoreUnavailable", "RateLimited", "CredentialsSignin"), or
 * anything else as found (which the suites reject).
 */
import { randomBytes } from "node:crypto"
import { expect } from "@jest/globals"
import { SoftAuthenticator } from "../../webauthn/soft-authenticator.js"
import type { AppProcess } from "./process.js"
import { until } from "./redis-topology.js"
import { CookieJar, SESSION_COOKIE, csrf, postForm, send, signedIn } from "./process-http.js"

/** The store's timeout (lib/shared-store/guarded.ts) and the slack allowed over it on a busy 2-core machine. */
export const STORE_TIMEOUT_MS = 1000
export const SLACK_MS = 4000
export const IDENTIFIER_LIMIT = 5
/** Every failover-run app's rate limit: the identifier limit is what the checks count. */
export const RATE_LIMIT = JSON.stringify({
  credentials: { ip: { limit: 100_000, window: 900 }, identifier: { limit: IDENTIFIER_LIMIT, window: 900 } },
  // The load signs in with passkeys from one loopback address for a while: not what is counted here.
  webauthn: { ip: { limit: 100_000, window: 900 } },
  webauthnOptions: { ip: { limit: 100_000, window: 900 } },
})

const json = { accept: "application/json" }
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "/", "http://app.test:3000").searchParams.get("error")

export async function checkRateLimit(A: AppProcess, B: AppProcess): Promise<void> {
  const name = `mallory-${randomBytes(4).toString("hex")}`
  const attempt = async (origin: string) => {
    const jar = new CookieJar()
    const response = await postForm(origin, "/auth/callback/credentials", jar, { csrfToken: await csrf(origin, jar), username: name, password: "wrong", callbackUrl: "/api/me" })
    return response.status === 429 ? 429 : `${response.status} ${errorOf(response)}`
  }
  for (let i = 0; i < IDENTIFIER_LIMIT; i++) expect(await attempt(i % 2 ? B.origin : A.origin)).toBe("302 CredentialsSignin")
  expect(await attempt(A.origin)).toBe(429)
  expect(await attempt(B.origin)).toBe(429)
}

/** A passkey sign-in: options on `from`, the answer posted to `to`; `replay(origin)` posts the same answer again. */
export async function passkey(soft: SoftAuthenticator, from: string, to: string, signal?: AbortSignal) {
  const jar = new CookieJar()
  const options = await send(jar, `${from}/auth/webauthn-options/passkey?action=authenticate`, { headers: json, signal })
  if (options.status !== 200) return { outcome: `options ${options.status}`, replay: undefined }
  const challengeCookie = jar.header()
  const data = JSON.stringify(soft.authenticate(((await options.json()) as { options: Parameters<SoftAuthenticator["authenticate"]>[0] }).options))
  const complete = async (origin: string, cookies: CookieJar) =>
    postForm(origin, "/auth/callback/passkey", cookies, { csrfToken: await csrf(origin, cookies), action: "authenticate", data, callbackUrl: "/api/me" }, {})
  const response = await complete(to, jar)
  const outcome = response.status === 302 && (response.headers.get("location") ?? "").endsWith("/api/me") ? "ok" : response.status === 302 ? (errorOf(response) ?? "302") : `status ${response.status}`
  const replay = async (origin: string) => {
    const attacker = new CookieJar()
    for (const pair of challengeCookie.split("; ")) attacker.cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
    attacker.cookies.delete(SESSION_COOKIE)
    const again = await complete(origin, attacker)
    return { status: again.status, error: errorOf(again), signedIn: attacker.cookies.has(SESSION_COOKIE) }
  }
  return { outcome, replay, data }
}

export async function checkPasskey(soft: SoftAuthenticator, A: AppProcess, B: AppProcess): Promise<void> {
  const first = await passkey(soft, A.origin, B.origin)
  expect(first.outcome).toBe("ok")
  expect(await first.replay!(A.origin)).toEqual({ status: 302, error: "WebAuthnVerificationError", signedIn: false })
}

export const me = (origin: string, cookie: string, signal?: AbortSignal) => fetch(`${origin}/api/me`, { headers: { cookie, ...json }, signal })

/** Polls until `origin` answers `status` to `cookie`; the ms it took. */
export async function untilStatus(origin: string, cookie: string, status: number, boundMs = 3000): Promise<number> {
  const start = performance.now()
  for (;;) {
    const seen = (await me(origin, cookie)).status
    const elapsed = performance.now() - start
    if (seen === status) return elapsed
    if (elapsed > boundMs) throw new Error(`${origin} still answers ${seen} (not ${status}) after ${elapsed.toFixed(0)} ms`)
    await new Promise((resume) => setTimeout(resume, 5))
  }
}

async function sessionId(origin: string, jar: CookieJar): Promise<string> {
  const response = await send(jar, `${origin}/auth/sessions`, { headers: json })
  expect(response.status).toBe(200)
  return ((await response.json()) as Array<{ id: string; current: boolean }>).find((entry) => entry.current)!.id
}

const heard = async (origin: string) => ((await (await fetch(`${origin}/__heard`)).json()) as { heard: number }).heard

/**
 * "Sign out everywhere else" on A: the other session reads signed out on B, the asking one stays;
 * and B's subscriber received the revocation message (pushed: the subscription is live). Returns
 * the ms until B read signed out.
 */
export async function checkRevocation(A: AppProcess, B: AppProcess): Promise<number> {
  const laptop = await signedIn(A.origin, A.origin, "alice", "correct-horse")
  const phone = await signedIn(A.origin, A.origin, "alice", "correct-horse")
  expect((await me(B.origin, phone.header())).status).toBe(200)
  expect((await me(B.origin, laptop.header())).status).toBe(200)
  const heardBefore = await heard(B.origin)
  const response = await postForm(A.origin, "/auth/sessions/revoke", laptop, { csrfToken: await csrf(A.origin, laptop), others: "1" }, json)
  expect(response.status).toBe(200)
  const delay = await untilStatus(B.origin, phone.header(), 401)
  expect((await me(B.origin, laptop.header())).status).toBe(200)
  await until(async () => (await heard(B.origin)) > heardBefore, "B's subscriber to receive the revocation", 10_000)
  return delay
}

/** Signs in on `origin` and revokes that very session there (POST sessions/revoke id=<its id>): its cookie, copied first. */
export async function revokedCookie(origin: string): Promise<{ cookie: string; sid: string }> {
  const jar = await signedIn(origin, origin, "alice", "correct-horse")
  const cookie = jar.header()
  const sid = await sessionId(origin, jar)
  const other = await signedIn(origin, origin, "alice", "correct-horse")
  const response = await postForm(origin, "/auth/sessions/revoke", other, { csrfToken: await csrf(origin, other), id: sid }, json)
  expect(response.status).toBe(200)
  return { cookie, sid }
}

export interface Answer {
  kind: "me" | "guess" | "passkey"
  /** ms since the load started, when the request was sent. */
  at: number
  ms: number
  outcome: string
  /** The process that answered (passkey: where the answer was posted). */
  origin: string
}

/**
 * Requests of the three kinds, one worker each, alternating A and B, until `stop()` is true or
 * `capMs` has passed; `answers` fills as they come, `done` resolves when the workers end. Each request is cut off at twice the bound (recorded as "hang"), so a hang
 * fails the suite instead of stalling it.
 */
export async function failoverLoad(A: AppProcess, B: AppProcess, soft: SoftAuthenticator, stop: () => boolean, capMs = 45_000): Promise<{ answers: Answer[]; started: number; done: Promise<void> }> {
  const cookie = (await signedIn(A.origin, A.origin, "bob", "battery-staple")).header()
  const started = performance.now()
  const answers: Answer[] = []
  const over = () => stop() || performance.now() - started > capMs
  const timed = async (kind: Answer["kind"], origin: string, request: (signal: AbortSignal) => Promise<string>) => {
    const at = performance.now()
    let outcome: string
    try {
      outcome = await request(AbortSignal.timeout(2 * (STORE_TIMEOUT_MS + SLACK_MS)))
    } catch (error) {
      outcome = (error as Error).name === "TimeoutError" ? "hang" : `thrown ${(error as Error).message}`
    }
    answers.push({ kind, at: at - started, ms: performance.now() - at, outcome, origin })
  }
  const worker = async (step: (i: number) => Promise<void>) => {
    for (let i = 0; !over(); i++) await step(i)
  }
  const done = Promise.all([
    worker((i) => {
      const origin = i % 2 ? B.origin : A.origin
      return timed("me", origin, async (signal) => {
        const response = await me(origin, cookie, signal)
        return response.status === 200 ? "ok" : `status ${response.status}`
      })
    }),
    worker((i) => {
      const origin = i % 2 ? B.origin : A.origin
      return timed("guess", origin, async (signal) => {
        const jar = new CookieJar()
        const token = ((await (await send(jar, `${origin}/auth/csrf`, { signal })).json()) as { csrfToken: string }).csrfToken
        const response = await send(jar, `${origin}/auth/callback/credentials`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ csrfToken: token, username: `guess-${i % 7}`, password: "wrong", callbackUrl: "/api/me" }).toString(),
          signal,
        })
        return response.status === 429 ? "RateLimited" : response.status === 302 ? (errorOf(response) ?? "302") : `status ${response.status}`
      })
    }),
    worker((i) => {
      const [from, to] = i % 2 ? [B.origin, A.origin] : [A.origin, B.origin]
      return timed("passkey", to, async (signal) => (await passkey(soft, from, to, signal)).outcome)
    }),
  ]).then(() => undefined)
  return { answers, started, done }
}

/** The answers the README documents for a store outage (and the ordinary ones). */
export const DOCUMENTED: Record<Answer["kind"], string[]> = {
  me: ["ok"],
  guess: ["CredentialsSignin", "RateLimited"],
  passkey: ["ok", "StoreUnavailable"],
}

/** Asserts the bound: every answer documented, none slower than the store's timeout plus slack. */
export function expectBounded(answers: Answer[]): void {
  const undocumented = answers.filter((answer) => !DOCUMENTED[answer.kind].includes(answer.outcome))
  expect(undocumented).toEqual([])
  const slow = answers.filter((answer) => answer.ms > STORE_TIMEOUT_MS + SLACK_MS)
  expect(slow).toEqual([])
}

/** Whether a passkey sign-in (a claim: the store itself) has worked on both A and B since `since` (ms, load time). */
export function passkeysBackOn(answers: Answer[], since: number, origins: string[]): boolean {
  return origins.every((origin) => answers.some((answer) => answer.kind === "passkey" && answer.outcome === "ok" && answer.origin === origin && answer.at >= since))
}

/**
 * The outage as the apps saw it: from the kill to the last answer that was not a success for a
 * claim (a passkey refused with StoreUnavailable), in ms; 0 when none was refused.
 */
export function outageWindow(answers: Answer[], killedAt: number): number {
  const refused = answers.filter((answer) => answer.kind === "passkey" && answer.outcome !== "ok" && answer.at + answer.ms >= killedAt)
  return refused.length ? Math.max(...refused.map((answer) => answer.at + answer.ms)) - killedAt : 0
}

/** Numbers for the report: per kind, answers by outcome, and the slowest. */
export function summary(answers: Answer[]): Record<string, string | number>[] {
  const kinds = ["me", "guess", "passkey"] as const
  return kinds.map((kind) => {
    const mine = answers.filter((answer) => answer.kind === kind)
    const outcomes: Record<string, number> = {}
    for (const answer of mine) outcomes[answer.outcome] = (outcomes[answer.outcome] ?? 0) + 1
    return { kind, requests: mine.length, outcomes: Object.entries(outcomes).map(([name, count]) => `${name} ${count}`).join(", "), "slowest ms": Math.max(0, ...mine.map((answer) => answer.ms)) }
  })
}

/** A soft authenticator for the apps' RP (app.test), whose counter stays 0 (so any process accepts it). */
export function softAuthenticator(): SoftAuthenticator {
  const soft = new SoftAuthenticator({ rpId: "app.test", origin: "http://app.test:3000" })
  soft.counting = false
  return soft
}
