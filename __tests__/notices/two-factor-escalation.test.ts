/**
 * Issue #24, confirmed problem 9: someone who holds the password used to get 5 second-factor
 * guesses every 15 minutes for ever (about 4 % a month), with no longer lock-out and no word to
 * the owner. Now each lock-out for repeated wrong codes lasts twice as long as the one before (up
 * to a day), counted in the shared store (so a second process of the app, sharing the database and
 * the Redis store, refuses too), the owner
 * gets exactly one mail (real SMTP sink), and a correct code after the lock-out ends still signs in.
 * The limit is 2 wrong codes per 3 s here so that the growing lock-outs (3 s, 6 s, 12 s) pass quickly,
 * with room for a slow machine: two wrong codes and the refused third must fit in the first window.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import request from "supertest"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import type { Adapter } from "../../lib/adapters.js"
import type { StateStore } from "../../lib/shared-store/types.js"
import type { AuthConfig } from "../../lib/types.js"
import { startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { redisStore } from "../sessions/setups.js"
import { awayFromStepEdge, baseConfig, codeFor, enrolledUser, signIn, submitCode, twoFactorApp } from "../two-factor/support.js"

jest.setTimeout(60_000)

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms))

async function config(smtp: SmtpSink, adapter: Adapter, store?: StateStore): Promise<AuthConfig> {
  const base = baseConfig()
  return baseConfig({
    adapter,
    providers: [...base.providers, Nodemailer({ server: smtp.url, from: "auth@example.test" })],
    rateLimit: { enabled: true, twoFactor: { identifier: { limit: 2, window: 3 } } },
    ...(store && { store }),
  })
}

const lockMails = (smtp: SmtpSink, to: string) => smtp.messages.filter((m) => m.envelope.to.includes(to) && /^Repeated wrong codes/.test(m.mail.subject ?? ""))

describe.each(["memory store", "Redis store shared by two processes"] as const)("repeated wrong second-factor codes (%s)", (name) => {
  it("each lock-out lasts longer than the one before, the owner gets exactly one mail, and a correct code after the lock-out still signs in", async () => {
    const smtp = await startSmtp()
    closers.push(() => smtp.close())
    const redis = name === "memory store" ? undefined : await redisStore()
    if (redis) closers.push(redis.close)
    const adapter = MemoryAdapter()
    const first = await config(smtp, adapter, redis?.store)
    const app = twoFactorApp(first)
    const { username, secret } = await enrolledUser(app)
    const email = `${username}@example.test`
    const wrong = codeFor(secret, 10)

    const attacker = request.agent(app)
    await signIn(attacker, username)
    const waits: number[] = []
    for (let round = 0; round < 3; round++) {
      await submitCode(attacker, wrong, 400)
      await submitCode(attacker, wrong, 400)
      const refused = await submitCode(attacker, wrong, 429)
      expect(refused.text).toContain("Too many attempts")
      waits.push(Number(refused.headers["retry-after"]))
      if (round === 0) {
        // One mail, the first time: someone knows the password.
        for (let i = 0; i < 100 && !lockMails(smtp, email).length; i++) await pause(50)
        expect(lockMails(smtp, email)).toHaveLength(1)
        expect(lockMails(smtp, email)[0]!.mail.text).toContain("entered wrong two-factor codes again and again")
      }
      // Even the right code is refused during a lock-out, on this process and on another one.
      if (round === 2 && redis) {
        const other = request.agent(twoFactorApp(await config(smtp, adapter, redis.store)))
        await signIn(other, username)
        await awayFromStepEdge()
        await submitCode(other, codeFor(secret, 1), 429)
      }
      await pause((waits[round] as number) * 1000 + 150)
    }
    expect(waits[1]).toBeGreaterThan(waits[0] as number)
    expect(waits[2]).toBeGreaterThan(waits[1] as number)

    // The owner, after the lock-out: the right code signs in.
    const owner = request.agent(app)
    await signIn(owner, username)
    await awayFromStepEdge()
    const accepted = await submitCode(owner, codeFor(secret, 1), 302)
    expect(String(accepted.headers.location)).toMatch(/\/api\/me$/)
    await pause(300)
    expect(lockMails(smtp, email)).toHaveLength(1)
  })
})
