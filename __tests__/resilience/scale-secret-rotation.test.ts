/**
 * FAULT-07 (SECURITY-CATALOG.md §14) — secret rotation rolled out one process at a time, cookie
 * (JWE) sessions, two app processes A and B. Restarting a process = stopping it and starting it
 * with its new secret list (the apps read it from their configuration at start-up).
 *
 *   step 0: A [S1],     B [S1]
 *   step 1: A [S1, S2]                 (the new secret added as the last entry everywhere first …)
 *   step 2:             B [S1, S2]
 *   step 3: A [S2, S1]                 (… then moved to the front, README "Secret rotation")
 *   step 4:             B [S2, S1]
 *   step 5: A [S2],     B [S2]
 *
 * At each of steps 0–4: every user signed in so far (except the dormant ones) reads their session
 * on A and on B and keeps whatever re-sealed cookie comes back (as a browser would): nobody is
 * signed out; new users sign in with the csrf pair from one process and the POST to the other; a
 * csrf pair obtained from a process before its restart still signs in on it after. Dormant users
 * sign in at steps 0, 2 and 4 and never come back until the end.
 * After step 5: exactly the sessions whose cookie is sealed under S2 survive (checked against the
 * cookie itself with gatehouse/jwt's decode and S2 alone): every active user (their cookie was
 * re-sealed on a process with S2 first), the step-4 dormant user; the step-0 and step-2 dormant
 * users (sealed under S1) read as signed out and their cookie is cleared.
 */
import { randomBytes } from "node:crypto"
import { afterAll, describe, expect, test } from "@jest/globals"
import { decode } from "gatehouse/jwt"
import { report, startApp, stopAll, type AppProcess } from "./support/process.js"
import { CookieJar, SESSION_COOKIE, csrf, postForm, readSession, signedIn } from "./support/process-http.js"

const S1 = `S1-${randomBytes(24).toString("hex")}`
const S2 = `S2-${randomBytes(24).toString("hex")}`
const NEW_USERS_PER_STEP = 6
const USERNAMES = ["alice", "bob", ...Array.from({ length: 10 }, (_, i) => `load-${i}`)]
const PASSWORDS: Record<string, string> = { alice: "correct-horse", bob: "battery-staple", ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`load-${i}`, `pw-${i}`])) }

interface User {
  label: string
  username: string
  jar: CookieJar
  dormant: boolean
}

const users: User[] = []
const rows: Record<string, string | number>[] = []
const apps: Record<"A" | "B", AppProcess | undefined> = { A: undefined, B: undefined }
let nextUser = 0

afterAll(async () => {
  await stopAll()
  report("FAULT-07 secret rotation, one process at a time (JWE sessions)", rows)
})

const start = (name: "A" | "B", secrets: string[]) => startApp(name, { GH_SECRETS: JSON.stringify(secrets) })

async function restart(name: "A" | "B", secrets: string[]): Promise<{ pairStillWorks: boolean }> {
  // A csrf pair handed out by the old process, posted to the new one.
  const jar = new CookieJar()
  const csrfToken = await csrf(apps[name]!.origin, jar)
  await apps[name]!.stop()
  apps[name] = await start(name, secrets)
  const username = USERNAMES[nextUser++ % USERNAMES.length]!
  const response = await postForm(apps[name]!.origin, "/auth/callback/credentials", jar, { csrfToken, username, password: PASSWORDS[username]!, callbackUrl: "/api/me" })
  const pairStillWorks = response.status === 302 && (response.headers.get("location") ?? "").endsWith("/api/me") && jar.cookies.has(SESSION_COOKIE)
  if (pairStillWorks) users.push({ label: `${username} (pair across restart of ${name})`, username, jar, dormant: false })
  return { pairStillWorks }
}

async function signInNew(step: number, dormant: boolean): Promise<void> {
  const username = USERNAMES[nextUser++ % USERNAMES.length]!
  const [from, to] = nextUser % 2 ? (["A", "B"] as const) : (["B", "A"] as const)
  const jar = await signedIn(apps[from]!.origin, apps[to]!.origin, username, PASSWORDS[username]!)
  users.push({ label: `${username} (step ${step}, csrf ${from} → POST ${to}${dormant ? ", dormant" : ""})`, username, jar, dormant })
}

const sealedUnder = async (jar: CookieJar, secret: string) => (await decode({ token: jar.cookies.get(SESSION_COOKIE), secret, salt: SESSION_COOKIE })) !== null

/** Every active user reads on A and on B; returns who was not signed in. */
async function everyoneReads(): Promise<{ reads: number; signedOut: string[]; resealed: number }> {
  const signedOut: string[] = []
  let reads = 0
  let resealed = 0
  for (const user of users.filter((candidate) => !candidate.dormant)) {
    for (const name of ["A", "B"] as const) {
      const before = user.jar.cookies.get(SESSION_COOKIE)
      const { status, body } = await readSession(apps[name]!.origin, user.jar)
      reads++
      if (user.jar.cookies.get(SESSION_COOKIE) !== before) resealed++
      if (status !== 200 || !body?.user?.email?.startsWith(user.username)) signedOut.push(`${user.label} on ${name}: ${status} ${JSON.stringify(body)}`)
    }
  }
  return { reads, signedOut, resealed }
}

const STEPS: { step: number; label: string; restart?: ["A" | "B", string[]] }[] = [
  { step: 0, label: "A [S1], B [S1]" },
  { step: 1, label: "A [S1,S2]", restart: ["A", [S1, S2]] },
  { step: 2, label: "B [S1,S2]", restart: ["B", [S1, S2]] },
  { step: 3, label: "A [S2,S1]", restart: ["A", [S2, S1]] },
  { step: 4, label: "B [S2,S1]", restart: ["B", [S2, S1]] },
]

describe("FAULT-07 secret rotation rolled out one process at a time", () => {
  for (const { step, label, restart: change } of STEPS) {
    test(`step ${step} (${label}): nobody signed out, csrf pairs cross processes`, async () => {
      let pair = "-"
      if (step === 0) [apps.A, apps.B] = await Promise.all([start("A", [S1]), start("B", [S1])])
      else {
        const { pairStillWorks } = await restart(...change!)
        pair = pairStillWorks ? "works" : "REFUSED"
        expect(pairStillWorks).toBe(true)
      }
      const { reads, signedOut, resealed } = await everyoneReads()
      for (let i = 0; i < NEW_USERS_PER_STEP; i++) await signInNew(step, false)
      if (step % 2 === 0) await signInNew(step, true)
      rows.push({ step: `${step}: ${label}`, "active users": users.filter((user) => !user.dormant).length, reads, "signed out": signedOut.length, "re-sealed": resealed, "csrf pair across restart": pair })
      expect(signedOut).toEqual([])
    })
  }

  test("step 5 (both [S2]): exactly the sessions sealed under S2 survive", async () => {
    const expected = new Map<User, boolean>()
    for (const user of users) expected.set(user, await sealedUnder(user.jar, S2))
    // Every active user's cookie was re-sealed under S2 on a process with S2 first (steps 3-4).
    expect(users.filter((user) => !user.dormant && !expected.get(user)).map((user) => user.label)).toEqual([])
    await Promise.all([apps.A!.stop(), apps.B!.stop()])
    ;[apps.A, apps.B] = await Promise.all([start("A", [S2]), start("B", [S2])])
    const wrong: string[] = []
    let survived = 0
    let ended = 0
    for (const user of users) {
      for (const name of ["A", "B"] as const) {
        const copy = new CookieJar()
        copy.cookies = new Map(user.jar.cookies)
        const response = await fetch(`${apps[name]!.origin}/auth/session`, { headers: { cookie: copy.header() } })
        const body = (await response.json()) as { user?: { email?: string } } | null
        const signedIn = response.status === 200 && !!body?.user?.email?.startsWith(user.username)
        const cleared = response.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=;`) || (line.startsWith(`${SESSION_COOKIE}=`) && /max-age=0/i.test(line)))
        if (signedIn !== expected.get(user)) wrong.push(`${user.label} on ${name}: signed in ${signedIn}, sealed under S2 ${expected.get(user)}`)
        if (!expected.get(user) && !cleared) wrong.push(`${user.label} on ${name}: S1 cookie not cleared`)
        if (name === "A" && signedIn) survived++
        else if (name === "A") ended++
      }
    }
    const dormant = users.filter((user) => user.dormant)
    rows.push({ step: "5: A [S2], B [S2]", "active users": users.filter((user) => !user.dormant).length, reads: users.length * 2, "signed out": `${ended} (dormant S1: ${dormant.filter((user) => !expected.get(user)).length})`, "re-sealed": `${survived} survive`, "csrf pair across restart": "-" })
    expect(wrong).toEqual([])
    // The dormant users of steps 0 and 2 were sealed under S1 and end; step 4's was sealed under S2.
    expect(dormant.map((user) => expected.get(user))).toEqual([false, false, true])
  })
})
