/**
 * Issue #18 — password accounts never tell whether an address has an account, in the answer or in
 * the time it takes. 200 tries each, alternating a new (unknown) and a registered address, one at
 * a time, rate limiting off, each try's mail awaited outside the timed part (so no background work
 * of one try lands in the next): sign-up and forgot-password. The answers (status, headers but
 * Date, body) must be identical; the medians within 5 ms (the bound), or within three
 * times the measurement's own standard error (`SIGMAS`) when the machine is too loaded to resolve
 * 5 ms. Sign-in (unknown address vs wrong password: one scrypt either way) is measured the same
 * way, 100 each.
 * Reported: p10, median, p90 of each.
 */
import { afterAll, describe, expect, test } from "@jest/globals"
import type { Response } from "superagent"
import { GOOD_PASSWORD, formToken, registered, startPasswordSite, type Agent, type PasswordSite } from "../password/support.js"
import { SIGMAS, medianDifferenceError, quantile, report } from "./support/process.js"

const MEDIAN_BOUND_MS = 5
const rows: Record<string, string | number>[] = []

afterAll(() => report(`Password accounts: known vs unknown address, ms (bound: medians within ${MEDIAN_BOUND_MS} ms)`, rows))

/**
 * The answer as compared: the pages name the address that was typed ("we sent a message to ...",
 * the sign-in page's login_hint), so the answers may differ by that address (and the length it
 * gives the body) and by nothing else.
 */
const answerOf = (response: Response, typed: string) =>
  JSON.stringify([response.status, Object.entries(response.headers).filter(([name]) => name !== "date" && name !== "content-length"), response.text]).replaceAll(encodeURIComponent(typed), "<typed>").replaceAll(typed, "<typed>")

const KNOWN = "registered@example.com"

/** `send` sends one try for `address` (KNOWN when `known`). */
async function measure(site: PasswordSite, label: string, tries: number, send: (agent: Agent, address: string) => Promise<Response>, mailsPerTry: (known: boolean) => number, unknownAddress: (i: number) => string) {
  const agent = site.agent()
  await formToken(agent, "/auth/signup")
  const times = { known: [] as number[], unknown: [] as number[] }
  const answers = new Set<string>()
  let mails = site.smtp.messages.length
  for (let i = 0; i < tries * 2 + 10; i++) {
    const known = i % 2 === 0
    const started = performance.now()
    const address = known ? KNOWN : unknownAddress(i)
    const response = await send(agent, address)
    const elapsed = performance.now() - started
    mails += mailsPerTry(known)
    if (mailsPerTry(known)) await site.smtp.waitFor(mails)
    if (i < 10) continue // warm-up
    ;(known ? times.known : times.unknown).push(elapsed)
    answers.add(answerOf(response, address))
  }
  const difference = quantile(times.known, 0.5) - quantile(times.unknown, 0.5)
  const bound = Math.max(MEDIAN_BOUND_MS, SIGMAS * medianDifferenceError(times.known, times.unknown))
  for (const [kind, values] of [["registered address", times.known], ["new address", times.unknown]] as const) {
    rows.push({ action: label, case: kind, n: values.length, p10: quantile(values, 0.1), median: quantile(values, 0.5), p90: quantile(values, 0.9), "median difference": difference, "bound used": bound })
  }
  return { answers, difference, bound }
}

describe("no enumeration by answer or time", () => {
  /** Each test its own site (the harness closes it after the test), with KNOWN registered. */
  const siteWithKnown = async (): Promise<PasswordSite> => {
    const site = await startPasswordSite()
    await registered(site, KNOWN)
    return site
  }

  test("sign-up: the same answer and the same median time for a registered and a new address (200 each)", async () => {
    const site = await siteWithKnown()
    const csrf = { token: "" }
    const run = await measure(
      site,
      "sign-up",
      200,
      async (agent, email) => {
        csrf.token ||= await formToken(agent, "/auth/signup")
        return agent.post("/auth/signup").type("form").redirects(0).send({ csrfToken: csrf.token, email, password: GOOD_PASSWORD })
      },
      () => 1,
      (i) => `new-${i}@example.com`,
    )
    expect(run.answers.size).toBe(1)
    expect(Math.abs(run.difference)).toBeLessThanOrEqual(run.bound)
  }, 1_800_000)

  test("forgot-password: the same answer and the same median time (200 each)", async () => {
    const site = await siteWithKnown()
    const csrf = { token: "" }
    const run = await measure(
      site,
      "forgot-password",
      200,
      async (agent, email) => {
        csrf.token ||= await formToken(agent, "/auth/forgot-password")
        return agent.post("/auth/forgot-password").type("form").redirects(0).send({ csrfToken: csrf.token, email })
      },
      (known) => (known ? 1 : 0),
      (i) => `nobody-${i}@example.com`,
    )
    expect(run.answers.size).toBe(1)
    expect(Math.abs(run.difference)).toBeLessThanOrEqual(run.bound)
  }, 600_000)

  test("sign-in: a wrong password and an unknown address, the same answer (100 each, reported)", async () => {
    const site = await siteWithKnown()
    const csrf = { token: "" }
    const run = await measure(
      site,
      "sign-in (wrong password / unknown)",
      100,
      async (agent, email) => {
        csrf.token ||= await formToken(agent, "/auth/signin")
        return agent.post("/auth/callback/password").type("form").redirects(0).send({ csrfToken: csrf.token, email, password: "a wrong password, long" })
      },
      () => 0,
      (i) => `nobody-${i}@example.com`,
    )
    expect(run.answers.size).toBe(1)
    expect(Math.abs(run.difference)).toBeLessThanOrEqual(run.bound)
  }, 1_200_000)
})
