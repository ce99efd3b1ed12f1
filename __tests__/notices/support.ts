/**
 * Harness for the security-notice suites (issue #24; not a test file): an app on a loopback port
 * with the Password provider and a magic-link provider sending through one real SMTP sink, the
 * memory adapter (or one given), either session strategy. Reuses the password suites' helpers
 * that act as a person would (forms with their CSRF token, links read from the mails).
 */
import { afterEach, expect, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { Adapter } from "../../lib/adapters.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Password from "../../lib/providers/password.js"
import type { AuthConfig } from "../../lib/types.js"
import { makeApp, request, serve, testConfig, type Agent } from "../helpers/app.js"
import { linkIn, startSmtp, type ReceivedMail, type SmtpSink } from "../helpers/smtp.js"
import { GOOD_PASSWORD, signIn, signUp, useLink } from "../password/support.js"

export interface NoticeSite {
  url: string
  smtp: SmtpSink
  adapter: Adapter
  config: AuthConfig
  errors: jest.Mock<(error: Error) => void>
  agent(): Agent
}

const open: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()))
})

export async function startNoticeSite(options: { strategy?: "jwt" | "database"; config?: Partial<AuthConfig>; adapter?: Adapter } = {}): Promise<NoticeSite> {
  const smtp = await startSmtp()
  const adapter = options.adapter ?? MemoryAdapter()
  const errors = jest.fn<(error: Error) => void>()
  const mailer = Nodemailer({ server: smtp.url, from: "auth@example.test" })
  const config = testConfig({
    providers: [Password({ email: mailer }), mailer],
    adapter,
    session: { strategy: options.strategy ?? "database" },
    logger: { error: errors },
    ...options.config,
  })
  const server = await serve(makeApp(config))
  open.push(async () => {
    server.server.closeAllConnections()
    await Promise.all([server.close(), smtp.close()])
  })
  return { url: server.url, smtp, adapter, config, errors, agent: () => request.agent(server.url) }
}

/** The mails that arrived for `to` (in order), waiting until there are `count` of them. */
export async function mailsTo(smtp: SmtpSink, to: string, count = 1): Promise<ReceivedMail[]> {
  for (let i = 0; i < 100; i++) {
    const found = smtp.messages.filter((message) => message.envelope.to.includes(to))
    if (found.length >= count) return found
    await new Promise((resume) => setTimeout(resume, 50))
  }
  throw new Error(`expected ${count} mail(s) to ${to}, got ${smtp.messages.filter((message) => message.envelope.to.includes(to)).length}`)
}

/** The last mail to `to` with its link, once `count` mails reached that address. */
export async function lastMailTo(smtp: SmtpSink, to: string, count = 1): Promise<{ mail: ReceivedMail; link: URL }> {
  const mails = await mailsTo(smtp, to, count)
  const mail = mails[mails.length - 1] as ReceivedMail
  return { mail, link: linkIn(mail) }
}

/** Signs `email` up with the password and confirms the address; returns a browser signed in. */
export async function passwordUser(site: NoticeSite, email: string, password = GOOD_PASSWORD): Promise<Agent> {
  const agent = site.agent()
  expect((await signUp(agent, email, password)).status).toBe(200)
  const { link } = await lastMailTo(site.smtp, email)
  expect((await useLink(agent, link)).status).toBe(302)
  const signedIn = site.agent()
  expect((await signIn(signedIn, email, password)).status).toBe(302)
  return signedIn
}

/** Mails to `to` that arrive within a moment from now (none expected: notices go out within ~10 ms). */
export async function settle(): Promise<void> {
  await new Promise((resume) => setTimeout(resume, 400))
}
