/**
 * Issue #20: the audit trail of magic-link sign-ins, through the real SMTP sink: the first
 * sign-in creates the user and links the email account; a replayed link is a `signin` failure
 * with reason Verification; neither the link's token nor the address is in any record.
 */
import { describe, expect, it } from "@jest/globals"
import { ALICE, csrfToken, follow, mailFor, sessionCookie, startSite } from "../email/support.js"
import { auditLog, expectCommonFields, expectNoSecrets } from "./support.js"

describe("audit records of magic-link sign-ins", () => {
  it("the first sign-in: user.created, account.linked and a `signin` success (provider, method email, isNewUser); the replayed link: failure Verification", async () => {
    const log = auditLog()
    const site = await startSite({ config: { events: { audit: log.audit } } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    const done = await follow(agent, link)
    expect(sessionCookie(done)).toBeDefined()
    const user = [...site.memory.store.users.values()][0]!
    expect(log.of("user.created")).toEqual([expect.objectContaining({ outcome: "success", userId: user.id })])
    expect(log.of("account.linked")).toEqual([expect.objectContaining({ outcome: "success", userId: user.id, provider: "nodemailer", accountType: "email" })])
    const [signin] = log.of("signin")
    expect(signin).toMatchObject({ outcome: "success", userId: user.id, provider: "nodemailer", method: "email", isNewUser: true, ip: "127.0.0.1" })
    expectCommonFields(signin!, String(done.headers["x-request-id"]))

    const again = await follow(agent, link)
    expect(sessionCookie(again)).toBeUndefined()
    expect(log.of("signin").slice(1)).toEqual([expect.objectContaining({ outcome: "failure", reason: "Verification", provider: "nodemailer", requestId: again.headers["x-request-id"] })])

    const token = link.searchParams.get("token")!
    expectNoSecrets(log.records, [token, link.href, sessionCookie(done), ALICE, await csrfToken(agent)])
  })
})
