/**
 * Issue #20: the audit trail of password accounts (real SMTP sink) and two-factor sign-in:
 * password sign-in, change (a wrong current password is a failure), reset (a used link is a
 * failure), the sessions those end; two-factor enabled, a wrong code and the right one (the
 * `signin` success only once the second factor passed), disabled. No password, code, secret or
 * link token in any record.
 */
import { describe, expect, it } from "@jest/globals"
import { GOOD_PASSWORD, OTHER_PASSWORD, mailAt, post, registered, signIn, startPasswordSite, useLink } from "../password/support.js"
import { awayFromStepEdge, baseConfig, codeFor, enrolledUser, field, signIn as firstFactor, submitCode, twoFactorApp } from "../two-factor/support.js"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { request } from "../helpers/app.js"
import { auditLog, expectNoSecrets } from "./support.js"

describe("audit records of password accounts", () => {
  it("sign-in, a refused and an accepted password change (all the user's sessions end), a reset and its reused link", async () => {
    const log = auditLog()
    const site = await startPasswordSite({ config: { events: { audit: log.audit } } })
    const email = "pat@example.test"
    await registered(site, email)
    const laptop = site.agent()
    expect((await signIn(laptop, email)).status).toBe(302)
    const signin = log.of("signin").at(-1)!
    expect(signin).toMatchObject({ outcome: "success", provider: "password", method: "credentials" })
    const userId = signin.userId as string
    expect(userId).toBeTruthy()

    const wrong = await post(laptop, "/auth/change-password", { currentPassword: "not-the-current-one", newPassword: OTHER_PASSWORD })
    expect(wrong.status).toBe(400)
    expect(log.of("password.changed")).toEqual([expect.objectContaining({ outcome: "failure", reason: "WrongCurrentPassword", userId, provider: "password", requestId: wrong.headers["x-request-id"] })])
    const changed = await post(laptop, "/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: OTHER_PASSWORD })
    expect(changed.status).toBe(302)
    expect(log.of("password.changed").at(-1)).toMatchObject({ outcome: "success", userId, requestId: changed.headers["x-request-id"] })
    expect(log.of("session.revoked").at(-1)).toMatchObject({ userId, scope: "user", requestId: changed.headers["x-request-id"] })

    // The password-changed notice (issue #24) arrives after the answer: counted before the reset mail.
    await site.smtp.waitFor(2)
    const phone = site.agent()
    const before = site.smtp.messages.length
    expect((await post(phone, "/auth/forgot-password", { email })).status).toBe(200)
    const { link } = await mailAt(site, before)
    const reset = await useLink(phone, link, { password: "a third long passphrase" })
    expect(reset.status).toBe(302)
    expect(log.of("password.reset")).toEqual([expect.objectContaining({ outcome: "success", userId, provider: "password", requestId: reset.headers["x-request-id"] })])
    const reused = await useLink(site.agent(), link, { password: "yet another long password" })
    expect(reused.status).toBe(400)
    expect(log.of("password.reset").at(-1)).toMatchObject({ outcome: "failure", reason: "PasswordLinkInvalid" })
    expect(log.of("password.reset").at(-1)!.userId).toBeUndefined()

    expectNoSecrets(log.records, [GOOD_PASSWORD, OTHER_PASSWORD, "not-the-current-one", "a third long passphrase", "yet another long password", link.searchParams.get("token") ?? undefined, link.href, email])
  }, 60_000)
})

describe("audit records of two-factor sign-in", () => {
  it("enabled; a wrong code is a challenge failure and no sign-in yet; the right code a challenge success then the sign-in; disabled", async () => {
    const log = auditLog()
    const app = twoFactorApp(baseConfig({ adapter: MemoryAdapter(), events: { audit: log.audit } }))
    const { username, secret, codes } = await enrolledUser(app)
    const userId = `u-${username}`
    expect(log.of("two_factor.enabled")).toEqual([expect.objectContaining({ outcome: "success", userId })])

    const agent = request.agent(app)
    const signinsBefore = log.of("signin").length
    await firstFactor(agent, username)
    expect(log.of("signin")).toHaveLength(signinsBefore)
    const refused = await submitCode(agent, "000000", 400)
    expect(log.of("two_factor.challenge")).toEqual([expect.objectContaining({ outcome: "failure", reason: "TwoFactorCodeInvalid", method: "totp", userId, requestId: refused.headers["x-request-id"] })])
    await awayFromStepEdge()
    const accepted = await submitCode(agent, codeFor(secret, 1), 302)
    expect(log.of("two_factor.challenge").at(-1)).toMatchObject({ outcome: "success", method: "totp", userId, requestId: accepted.headers["x-request-id"] })
    expect(log.of("signin").slice(signinsBefore)).toEqual([expect.objectContaining({ outcome: "success", userId, provider: "credentials", requestId: accepted.headers["x-request-id"] })])

    const manage = (await agent.get("/auth/two-factor/setup").expect(200)).text
    await agent.post("/auth/two-factor/setup").type("form").send({ csrfToken: field(manage, "csrfToken"), intent: "disable", code: codes[0] }).expect(200)
    expect(log.of("two_factor.disabled")).toEqual([expect.objectContaining({ outcome: "success", userId })])
    expect(log.of("two_factor.challenge").at(-1)).toMatchObject({ outcome: "success", method: "recovery" })

    expectNoSecrets(log.records, [secret, ...codes, codeFor(secret), codeFor(secret, 1), field(manage, "csrfToken")])
  }, 90_000)
})
