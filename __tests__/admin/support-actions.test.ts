/**
 * Two support actions of the admin tools (issue #30) on memory and SQLite: removing a user's lost
 * second factor (`POST admin/remove-two-factor`: the user then signs in with one factor, the admin
 * view shows none, a second removal answers false) and mailing a password-reset link
 * (`POST admin/send-password-reset`: the password provider's own mail, through a real SMTP sink,
 * whose link sets a new password), each audited with the admin and the user; without a password
 * provider the reset answers InvalidRequest.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Password from "../../lib/providers/password.js"
import { linkIn, startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { credentialsProvider, PASSWORD } from "../integration/organizations/support.js"
import { enrol } from "../two-factor/support.js"
import { GOOD_PASSWORD, OTHER_PASSWORD, signIn as passwordSignIn, signUp, useLink } from "../password/support.js"
import { agentFor, buildAdminApp, csrfOf, engine, refusal, signIn, someone, storedUser, unique, type EngineName } from "./support.js"

jest.setTimeout(60_000)

/** A Credentials sign-in; the answer (a redirect) and the browser. */
async function credentialsSignIn(app: Parameters<typeof agentFor>[0], username: string) {
  const agent = agentFor(app)
  const csrfToken = await csrfOf(agent)
  const res = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken, username, password: PASSWORD, callbackUrl: "/private" })
  expect(res.status).toBe(302)
  return { agent, path: new URL(String(res.headers.location), "http://app.test").pathname }
}

describe.each<EngineName>(["memory", "sqlite", "postgres"])("admin support actions on %s", (name) => {
  const store = engine(name, "sup")
  let smtp: SmtpSink
  beforeAll(async () => {
    await store.open()
    smtp = await startSmtp()
  }, 60_000)
  afterAll(async () => {
    await smtp?.close()
    await store.close()
  })

  it("remove-two-factor: the user signs in with one factor again, the view shows none, a second removal answers false", async () => {
    const t = buildAdminApp(store.adapter(), { extra: { twoFactor: { issuer: "Test" } } })
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "phone-lost")
    // The user enrols through the setup page, as a person does.
    await enrol((await signIn(t.app, user)).agent, "/private")
    expect((await credentialsSignIn(t.app, user.username)).path).toBe("/auth/two-factor")
    const enrolled = await admin.get(`/auth/admin/${encodeURIComponent(user.id)}`)
    expect(enrolled.body.twoFactor).toEqual({ enabledAt: expect.any(String) })

    const removed = await admin.admin("remove-two-factor", { userId: user.id })
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ removed: true })
    expect((await admin.get(`/auth/admin/${encodeURIComponent(user.id)}`)).body.twoFactor).toBeNull()
    expect((await admin.admin("remove-two-factor", { userId: user.id })).body).toEqual({ removed: false })

    const back = await credentialsSignIn(t.app, user.username)
    expect(back.path).toBe("/private")
    expect((await back.agent.get("/private").set("Accept", "application/json")).body).toEqual({ ok: true, email: user.email })

    const records = t.auditRecords.filter((record) => record.type === "admin.two_factor_removed")
    // One record: the second removal found nothing to remove.
    expect(records).toEqual([expect.objectContaining({ adminId: admin.id, userId: user.id, outcome: "success" })])
    expect((await admin.admin("remove-two-factor", { userId: "no-such-user" })).body).toEqual(refusal("UserNotFound"))
  })

  it("send-password-reset: the password provider's mail reaches the user, and its link sets a new password", async () => {
    const provider = Password({ email: Nodemailer({ server: smtp.url, from: "auth@example.test" }) })
    const t = buildAdminApp(store.adapter(), { extra: { providers: [credentialsProvider(), provider] } })
    const admin = await someone(t, "root", { admin: true })
    const email = `${unique("reset")}@example.com`.toLowerCase()
    const before = smtp.messages.length
    const browser = agentFor(t.app)
    expect((await signUp(browser, email)).status).toBe(200)
    expect((await useLink(browser, linkIn((await smtp.waitFor(before + 1))[before]!))).status).toBe(302)
    const user = await t.adapter.getUserByEmail!(email)

    const sent = await admin.admin("send-password-reset", { userId: user!.id })
    expect(sent.status).toBe(200)
    expect(sent.body).toEqual({ sent: true })
    const mail = (await smtp.waitFor(before + 2))[before + 1]!
    expect(mail.envelope.to).toEqual([email])
    expect(mail.mail.subject).toMatch(/Choose a new password/)
    const link = linkIn(mail)
    expect(link.pathname).toBe("/auth/reset-password")

    const phone = agentFor(t.app)
    expect((await useLink(phone, link, { password: OTHER_PASSWORD })).status).toBe(302)
    const fresh = agentFor(t.app)
    expect(new URL(String((await passwordSignIn(fresh, email, GOOD_PASSWORD)).headers.location)).searchParams.get("error")).toBe("CredentialsSignin")
    expect(String((await passwordSignIn(fresh, email, OTHER_PASSWORD)).headers.location)).not.toContain("error=")
    expect((await fresh.get("/private").set("Accept", "application/json")).body).toEqual({ ok: true, email })

    const record = t.auditRecords.find((entry) => entry.type === "admin.password_reset_sent")
    expect(record).toMatchObject({ adminId: admin.id, userId: user!.id, outcome: "success" })
    // The record names the user by id only: no address, no link.
    expect(JSON.stringify(record)).not.toContain(email)
    expect(JSON.stringify(record)).not.toContain(link.searchParams.get("token"))
  })

  it("send-password-reset without a password provider: 400 InvalidRequest, no mail, no record", async () => {
    const t = buildAdminApp(store.adapter())
    const admin = await someone(t, "root", { admin: true })
    const user = await storedUser(t.adapter, "nopassword")
    const before = smtp.messages.length
    const refused = await admin.admin("send-password-reset", { userId: user.id })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual(refusal("InvalidRequest"))
    expect(smtp.messages.length).toBe(before)
    expect(t.auditRecords.filter((entry) => entry.type === "admin.password_reset_sent")).toEqual([])
    expect(t.auditRecords).toContainEqual(expect.objectContaining({ type: "admin.refused", reason: "InvalidRequest", action: "send-password-reset", targetId: user.id }))
  })
})
