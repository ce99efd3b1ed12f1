/**
 * Harness for the password-account suites (not a test file): an app on a loopback port with the
 * Password provider, a real SMTP sink, and helpers that act as a person would: fill in the forms
 * (with the CSRF token from the page), read the link from the mail, follow it.
 */
import { afterEach, expect, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { Adapter } from "../../lib/adapters.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Password from "../../lib/providers/password.js"
import type { PasswordOptions } from "../../lib/password/options.js"
import type { AuthConfig } from "../../lib/types.js"
import { makeApp, request, serve, testConfig, type Agent } from "../helpers/app.js"
import { linkIn, startSmtp, type ReceivedMail, type SmtpSink } from "../helpers/smtp.js"

export { request, type Agent, type ReceivedMail }
export const SESSION_COOKIE = "authjs.session-token"
export const GOOD_PASSWORD = "correct horse battery staple"
export const OTHER_PASSWORD = "a different long passphrase"

export interface PasswordSite {
  url: string
  smtp: SmtpSink
  adapter: Adapter
  config: AuthConfig
  errors: jest.Mock<(error: Error) => void>
  agent(): Agent
  close(): Promise<void>
}

const open: PasswordSite[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((site) => site.close()))
})

export async function startPasswordSite(options: { adapter?: Adapter; password?: Partial<PasswordOptions>; config?: Partial<AuthConfig> } = {}): Promise<PasswordSite> {
  const smtp = await startSmtp()
  const adapter = options.adapter ?? MemoryAdapter()
  const errors = jest.fn<(error: Error) => void>()
  const provider = Password({ email: Nodemailer({ server: smtp.url, from: "auth@example.test" }), ...options.password })
  const config = testConfig({ providers: [provider], adapter, logger: { error: errors }, ...options.config })
  const server = await serve(makeApp(config))
  const site: PasswordSite = {
    url: server.url,
    smtp,
    adapter,
    config,
    errors,
    agent: () => request.agent(server.url),
    close: async () => {
      server.server.closeAllConnections()
      await Promise.all([server.close(), smtp.close()])
    },
  }
  open.push(site)
  return site
}

/** The hidden csrfToken of a page's form (the agent keeps the cookie). */
export async function formToken(agent: Agent, path: string): Promise<string> {
  const page = await agent.get(path).expect(200)
  const match = /name="csrfToken" value="([^"]+)"/.exec(page.text)
  if (!match) throw new Error(`no csrf token on ${path}`)
  return match[1] as string
}

export async function post(agent: Agent, path: string, fields: Record<string, string>, tokenFrom = path) {
  const csrfToken = await formToken(agent, tokenFrom)
  return agent.post(path).type("form").redirects(0).send({ csrfToken, ...fields })
}

export const signUp = (agent: Agent, email: string, password = GOOD_PASSWORD, extra: Record<string, string> = {}) =>
  post(agent, "/auth/signup", { email, password, ...extra })

export const signIn = (agent: Agent, email: string, password = GOOD_PASSWORD) =>
  // The form as the page shows it for this address (the second step where the page has two).
  post(agent, "/auth/callback/password", { email, password }, `/auth/signin?login_hint=${encodeURIComponent(email)}`)

/** Waits for mail number `index` (0-based) and returns it with its link. */
export async function mailAt(site: PasswordSite, index: number): Promise<{ mail: ReceivedMail; link: URL }> {
  const messages = await site.smtp.waitFor(index + 1)
  const mail = messages[index] as ReceivedMail
  return { mail, link: linkIn(mail) }
}

/** Opens a mailed link's page and presses its button (verify-email) or fills in the new password (reset-password). */
export async function useLink(agent: Agent, link: URL, fields: Record<string, string> = {}) {
  const page = await agent.get(`${link.pathname}${link.search}`).expect(200)
  const hidden = Object.fromEntries([...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], decodeEntities(m[2] as string)]))
  return agent.post(link.pathname).type("form").redirects(0).send({ ...hidden, ...fields })
}

function decodeEntities(text: string): string {
  return text.replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
}

/** The signed-in user of the agent's session (GET /auth/session), or null. */
export async function sessionUser(agent: Agent): Promise<{ email?: string; name?: string } | null> {
  const response = await agent.get("/auth/session").expect(200)
  return response.body?.user ?? null
}

/** Signs a new address up and confirms it: the account is ready to sign in. */
export async function registered(site: PasswordSite, email: string, password = GOOD_PASSWORD): Promise<void> {
  const agent = site.agent()
  const before = site.smtp.messages.length
  expect((await signUp(agent, email, password)).status).toBe(200)
  const { link } = await mailAt(site, before)
  expect((await useLink(agent, link)).status).toBe(302)
}
