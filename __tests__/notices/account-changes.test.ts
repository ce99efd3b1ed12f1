/**
 * Issue #24: the security notices for changes someone holding a session could make, each replayed
 * end to end with the real SMTP sink. Before the fix none of these mails existed: a password
 * changed or reset, two-factor sign-in set up, given new recovery codes or turned off. Each now
 * mails the account's address once, in the request's language, with the site, the time and a
 * link to the account page.
 */
import { describe, expect, it } from "@jest/globals"
import request from "supertest"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import { startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { GOOD_PASSWORD, OTHER_PASSWORD, post, useLink } from "../password/support.js"
import { awayFromStepEdge, baseConfig, codeFor, enrolledUser, field, signIn as firstFactor, submitCode, twoFactorApp } from "../two-factor/support.js"
import { lastMailTo, mailsTo, passwordUser, settle, startNoticeSite } from "./support.js"

const subjects = (smtp: SmtpSink, to: string) => smtp.messages.filter((m) => m.envelope.to.includes(to)).map((m) => m.mail.subject)

describe("password notices", () => {
  it("changing the password mails the account's address: what happened, when, and a link to the account page", async () => {
    const site = await startNoticeSite()
    const agent = await passwordUser(site, "pat@example.com")
    const changed = await post(agent, "/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: OTHER_PASSWORD, callbackUrl: "/" }, "/auth/change-password")
    expect(changed.status).toBe(302)
    const { mail, link } = await lastMailTo(site.smtp, "pat@example.com", 2)
    expect(mail.mail.subject).toMatch(/^The password of your account on 127\.0\.0\.1:\d+ was changed$/)
    expect(mail.mail.text).toMatch(/^On .+ GMT, the password of your account on 127\.0\.0\.1:\d+ was changed\.$/m)
    expect(mail.mail.text).toContain("If this was you, there is nothing to do. If not, someone else may be able to sign in to your account")
    expect(link.href).toBe(`${site.url}/auth/account`)
    await settle()
    expect(subjects(site.smtp, "pat@example.com")).toHaveLength(2)
  })

  it("a reset by the mailed link mails a notice too, in the language of the request (German here)", async () => {
    const site = await startNoticeSite({ strategy: "jwt" })
    await passwordUser(site, "rena@example.com")
    const asker = site.agent().set("Accept-Language", "de")
    await post(asker, "/auth/forgot-password", { email: "rena@example.com" })
    const reset = await lastMailTo(site.smtp, "rena@example.com", 2)
    expect((await useLink(asker, reset.link, { password: OTHER_PASSWORD })).status).toBe(302)
    const { mail } = await lastMailTo(site.smtp, "rena@example.com", 3)
    expect(mail.mail.subject).toMatch(/^Das Passwort Ihres Kontos bei .+ wurde zurückgesetzt$/)
    expect(mail.mail.html).toContain('lang="de"')
  })
})

describe("two-factor notices", () => {
  it("setting it up, making new recovery codes and turning it off each mail the user once", async () => {
    const smtp = await startSmtp()
    try {
      const base = baseConfig()
      const app = twoFactorApp(baseConfig({ adapter: MemoryAdapter(), providers: [...base.providers, Nodemailer({ server: smtp.url, from: "auth@example.test" })] }))
      const { username, secret, codes } = await enrolledUser(app)
      const email = `${username}@example.test`
      expect((await lastMailTo(smtp, email)).mail.mail.subject).toMatch(/^Two-factor sign-in was set up for your account on /)

      const agent = request.agent(app)
      await firstFactor(agent, username)
      await awayFromStepEdge()
      await submitCode(agent, codeFor(secret, 1), 302)
      const manage = (await agent.get("/auth/two-factor/setup").expect(200)).text
      const renewed = await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: field(manage, "csrfToken"), intent: "regenerate", code: codes[0] }).expect(200)
      expect((await lastMailTo(smtp, email, 2)).mail.mail.subject).toMatch(/^New recovery codes were made for your account on /)
      const fresh = /<li><code>([0-9a-z-]+)<\/code><\/li>/.exec(renewed.text)?.[1] as string
      await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: field(manage, "csrfToken"), intent: "disable", code: fresh }).expect(200)
      const off = await lastMailTo(smtp, email, 3)
      expect(off.mail.mail.subject).toMatch(/^Two-factor sign-in was turned off for your account on /)
      expect(off.mail.mail.text).toContain("the first sign-in step alone signs in now")
      expect(off.mail.mail.text).not.toContain("a password alone")
      await settle()
      expect((await mailsTo(smtp, email, 3)).length).toBe(3)
    } finally {
      await smtp.close()
    }
  })
})
