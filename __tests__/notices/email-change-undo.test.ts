/**
 * Issue #24, confirmed problem 3, replayed end to end with the real SMTP sink: someone holding a
 * session of the account changes its email address to their own, then asks for a password reset
 * at the new address. Before the fix nothing told the old address, and the owner was locked out.
 * Now the old address gets a notice with an undo link: following it (signed out: the thief may
 * have changed the password) gives the account its address back and ends every session of the
 * user, cookie and database strategies alike, and the reset link mailed to the new address no
 * longer reaches the account. The undo link works once.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { OTHER_PASSWORD, post, sessionUser, signIn, useLink } from "../password/support.js"
import { lastMailTo, passwordUser, startNoticeSite } from "./support.js"

const OWNER = "owner@example.com"
const THIEF = "thief@evil.example"

describe.each(["database", "jwt"] as const)("a stolen session changes the email address (%s sessions)", (strategy) => {
  it("the old address gets a notice with an undo link; following it restores the address, ends every session, and the new address's reset link no longer reaches the account", async () => {
    const site = await startNoticeSite({ strategy })
    const owner = await passwordUser(site, OWNER)
    const thief = site.agent()
    expect((await signIn(thief, OWNER)).status).toBe(302)
    const userId = (await site.adapter.getUserByEmail!(OWNER))!.id

    // The thief changes the address to theirs and confirms it with the link mailed there.
    const asked = await post(thief, "/auth/account/email", { email: THIEF }, "/auth/account")
    expect(String(asked.headers.location)).toMatch(/saved=email$/)
    const confirm = await lastMailTo(site.smtp, THIEF)
    expect((await useLink(thief, confirm.link)).status).toBe(302)
    expect((await site.adapter.getUser!(userId))?.email).toBe(THIEF)

    // The old address is told, with a way back.
    const notice = await lastMailTo(site.smtp, OWNER, 2)
    expect(notice.mail.mail.subject).toMatch(/^The email address of your account on .+ was changed$/)
    expect(notice.mail.mail.text).toContain(`to ${THIEF}.`)
    expect(notice.link.pathname).toBe("/auth/account/undo-email")
    expect(notice.mail.mail.html).toContain("Undo this change")

    // Meanwhile the thief asks for a reset link at the new address.
    await post(site.agent(), "/auth/forgot-password", { email: THIEF })
    const reset = await lastMailTo(site.smtp, THIEF, 2)
    expect(reset.link.pathname).toBe("/auth/reset-password")

    // The owner, signed out, follows the undo link: a page with a button, then the notice page.
    const rescuer = site.agent()
    const opened = await rescuer.get(`${notice.link.pathname}${notice.link.search}`).expect(200)
    expect(opened.text).toContain(`Give my account ${OWNER} back`)
    expect((await site.adapter.getUser!(userId))?.email).toBe(THIEF)
    const undone = await useLink(rescuer, notice.link)
    expect(undone.status).toBe(302)
    expect(new URL(String(undone.headers.location)).pathname + new URL(String(undone.headers.location)).search).toBe("/auth/notice?type=EmailChangeUndone")
    const restored = await site.adapter.getUser!(userId)
    expect(restored?.email).toBe(OWNER)
    expect(restored?.emailVerified).toBeInstanceOf(Date)

    // Every session of the user ended: the thief's copy and the owner's alike.
    expect(await sessionUser(thief)).toBeNull()
    expect(await sessionUser(owner)).toBeNull()
    expect((await thief.get("/api/me")).status).toBe(401)

    // The reset link mailed to the thief's address no longer reaches the account.
    const used = await useLink(site.agent(), reset.link, { password: OTHER_PASSWORD })
    expect(used.status).toBe(400)
    expect(used.text).toContain("link")
    expect((await signIn(site.agent(), OWNER, OTHER_PASSWORD)).headers.location).toMatch(/error=/)
    // The owner signs in again with the password.
    const back = site.agent()
    expect(String((await signIn(back, OWNER)).headers.location)).not.toMatch(/error=/)
    expect((await sessionUser(back))?.email).toBe(OWNER)

    // The undo link works once.
    const again = await useLink(site.agent(), notice.link)
    expect(String(again.headers.location)).toMatch(/\/auth\/error\?error=Verification$/)
    expect((await site.adapter.getUser!(userId))?.email).toBe(OWNER)
  })

  it("deleting the account ends its undo links: no token is left behind, and the link gives nothing back", async () => {
    const adapter = MemoryAdapter()
    const site = await startNoticeSite({ strategy, adapter })
    const owner = await passwordUser(site, OWNER)
    await post(owner, "/auth/account/email", { email: THIEF }, "/auth/account")
    expect((await useLink(owner, (await lastMailTo(site.smtp, THIEF)).link)).status).toBe(302)
    const notice = await lastMailTo(site.smtp, OWNER, 2)
    expect(notice.link.pathname).toBe("/auth/account/undo-email")
    expect([...adapter.store.tokens.values()].filter((token) => token.identifier.startsWith("email-undo:"))).toHaveLength(1)

    const deleted = await post(owner, "/auth/account/delete", { confirm: "yes" }, "/auth/account")
    expect(deleted.status).toBe(302)
    expect(adapter.store.users.size).toBe(0)
    expect([...adapter.store.tokens.values()]).toEqual([])
    const followed = await useLink(site.agent(), notice.link)
    expect(String(followed.headers.location)).toMatch(/\/auth\/error\?error=Verification$/)
    expect(adapter.store.users.size).toBe(0)
  })
})
