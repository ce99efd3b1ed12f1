/**
 * Issue #24: a new way into an existing account is told to its owner by mail. Replayed end to end
 * with real parts: the software authenticator adds a second passkey to a signed-in account, and
 * the real OpenID provider links a second provider's account to a signed-in user. The notices go
 * through the app's own `notices.sendMail` here (sending to the real SMTP sink), which also shows
 * that option at work. A first passkey or a first sign-in (a new user) sends none.
 */
import { afterEach, describe, expect, it } from "@jest/globals"
import nodemailer from "nodemailer"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { NoticeMail } from "../../lib/notices/options.js"
import Passkey from "../../lib/providers/passkey.js"
import { startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { client, oauthSuite, oidc, signInFlow, startSite } from "../oauth/support.js"
import { Browser, buildApp, expectPasskeyAdded, passkeySignUp, softFor } from "../webauthn/fixtures.js"
import { lastMailTo, settle } from "./support.js"

oauthSuite()

const sinks: SmtpSink[] = []
afterEach(async () => {
  for (const sink of sinks.splice(0)) await sink.close()
})

/** The app's own sender: every notice handed to it goes to the SMTP sink. */
async function ownSender() {
  const smtp = await startSmtp()
  sinks.push(smtp)
  const transport = nodemailer.createTransport(smtp.url)
  const handed: NoticeMail[] = []
  const sendMail = async (mail: NoticeMail) => {
    handed.push(mail)
    await transport.sendMail({ to: mail.to, from: "notices@example.test", subject: mail.subject, text: mail.text, html: mail.html })
  }
  return { smtp, handed, sendMail }
}

describe("a new passkey on an existing account (software authenticator)", () => {
  it("mails the account's address; the passkey that created the account did not", async () => {
    const { smtp, handed, sendMail } = await ownSender()
    const built = buildApp({ providers: [Passkey()], config: { notices: { sendMail } } })
    const browser = new Browser(built.app)
    const { res } = await passkeySignUp(browser, softFor(), "kim@example.com")
    expect(res.status).toBe(302)
    await settle()
    expect(handed).toEqual([])

    const more = await browser.options("")
    expect(more.body.action).toBe("register")
    expectPasskeyAdded(await browser.callback("register", softFor().register(more.body.options)))
    const { mail, link } = await lastMailTo(smtp, "kim@example.com")
    expect(mail.mail.subject).toBe("A new passkey was added to your account on app.test:3443")
    expect(link.href).toBe("https://app.test:3443/auth/account")
    expect(handed.map((notice) => notice.kind)).toEqual(["passkeyAdded"])
  })
})

describe.each(["database", "cookie"] as const)("a provider account linked to a signed-in user (real OpenID provider, %s sessions)", (strategy) => {
  it("mails the account's address naming the provider; the first sign-in did not", async () => {
    const { smtp, handed, sendMail } = await ownSender()
    const site = await startSite({
      clients: (url) => [client(url), client(url, { client_id: "other-client" }, "other")],
      providers: (idp) => [oidc(idp), oidc(idp, { id: "other", name: "Other", clientId: "other-client" })],
      config: () => ({ adapter: MemoryAdapter(), session: { strategy }, notices: { sendMail } }),
    })
    const agent = site.agent()
    await signInFlow(site, agent)
    await settle()
    expect(handed).toEqual([])

    const second = await signInFlow(site, agent, { id: "other", login: "bob" })
    expect(second.callback.headers.location).toBe(`${site.url}/`)
    const { mail } = await lastMailTo(smtp, "alice@example.com")
    expect(mail.mail.subject).toMatch(/^A new way to sign in was added to your account on /)
    expect(mail.mail.text).toContain("Other was added to your account")
    expect(handed.map((notice) => notice.kind)).toEqual(["methodLinked"])
  })
})
