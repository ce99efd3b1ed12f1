/**
 * Password accounts end to end, on the memory adapter and the SQL adapter on SQLite, PostgreSQL
 * and MariaDB, with every mail read from a real SMTP sink: sign-up, verification, sign-in, a wrong
 * password, forgot/reset (the link again: refused; the other device: signed out), change password,
 * and the upgrade of a hash made under older parameters.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import type { Adapter } from "../../lib/adapters.js"
import { hashPassword, parseHash } from "../../lib/password/hash.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix, type DatabaseName } from "../helpers/databases.js"
import { GOOD_PASSWORD, OTHER_PASSWORD, mailAt, post, registered, sessionUser, signIn, signUp, startPasswordSite, useLink } from "./support.js"

jest.setTimeout(120_000)

const ENGINES: Array<"memory" | DatabaseName> = ["memory", "sqlite", "postgres", "mariadb"]

describe.each(ENGINES)("password accounts on %s", (engine) => {
  const prefix = uniquePrefix(`pw_${engine.slice(0, 2)}`)
  let sql: SqlAdapterInstance | undefined
  const adapter = (): Adapter => sql ?? memory
  const memory = MemoryAdapter()

  beforeAll(async () => {
    if (engine !== "memory") sql = await openTestDatabase(engine, prefix)
  })
  afterAll(async () => {
    if (sql) await closeTestDatabase(sql, prefix)
  })

  it("signs up, confirms the address by the mailed link (single use, hashed at rest), then signs in; a wrong password is refused", async () => {
    const site = await startPasswordSite({ adapter: adapter() })
    const email = `alice-${engine}@example.com`
    const browser = site.agent()
    const answer = await signUp(browser, email, GOOD_PASSWORD, { name: "Alice" })
    expect(answer.status).toBe(200)
    expect(answer.text).toContain(`Check your email. We sent a message to ${email}; follow it to continue.`)
    expect(answer.text).toMatch(/<a href="[^"]*\/auth\/signup\?callbackUrl=[^"]*">Use another address<\/a>/)
    const { mail, link } = await mailAt(site, 0)
    expect(mail.envelope.to).toEqual([email])
    expect(mail.mail.subject).toMatch(/Confirm your email address/)
    expect(link.pathname).toBe("/auth/verify-email")
    // The user exists, unconfirmed; the stored hash names its parameters; the token is stored hashed.
    const user = await adapter().getUserByEmail!(email)
    expect(user).toMatchObject({ name: "Alice", emailVerified: null })
    expect(await adapter().getPasswordHash!(user!.id)).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/)
    const raw = link.searchParams.get("token")!
    expect(await adapter().useVerificationToken!({ identifier: `password-verify:${user!.id}`, token: raw })).toBeNull()

    // Before the link: the right password gets "confirm your address first", no session.
    const early = await signIn(site.agent(), email)
    expect(early.status).toBe(302)
    expect(new URL(early.headers.location!).searchParams.get("error")).toBe("EmailNotVerified")

    // Opening the link changes nothing (a scanner); the button confirms and signs in.
    const confirmed = await useLink(browser, link)
    expect(confirmed.status).toBe(302)
    expect(await sessionUser(browser)).toMatchObject({ email, name: "Alice" })
    expect((await adapter().getUser!(user!.id))?.emailVerified).toBeInstanceOf(Date)
    // The link again: refused with its named error.
    const again = await useLink(site.agent(), link)
    expect(again.status).toBe(400)
    expect(again.text).toContain("That link no longer works")

    const other = site.agent()
    const wrong = await signIn(other, email, "not the password at all")
    expect(wrong.status).toBe(302)
    expect(new URL(wrong.headers.location!).searchParams.get("error")).toBe("CredentialsSignin")
    expect(await sessionUser(other)).toBeNull()
    const right = await signIn(other, email)
    expect(right.status).toBe(302)
    expect(await sessionUser(other)).toMatchObject({ email })
  })

  it("forgot/reset: a single-use link resets the password, signs the user in and signs the other device out", async () => {
    const site = await startPasswordSite({ adapter: adapter() })
    const email = `bob-${engine}@example.com`
    await registered(site, email)
    const laptop = site.agent()
    await signIn(laptop, email)
    expect(await sessionUser(laptop)).toMatchObject({ email })

    const phone = site.agent()
    const asked = await post(phone, "/auth/forgot-password", { email })
    expect(asked.status).toBe(200)
    expect(asked.text).toContain("If the address has an account")
    const { mail, link } = await mailAt(site, 1)
    expect(mail.mail.subject).toMatch(/Choose a new password/)
    expect(link.pathname).toBe("/auth/reset-password")
    // A weak password leaves the link usable.
    const weak = await useLink(phone, link, { password: "short" })
    expect(weak.status).toBe(400)
    expect(weak.text).toContain("too short or too common")
    const reset = await useLink(phone, link, { password: OTHER_PASSWORD })
    expect(reset.status).toBe(302)
    expect(await sessionUser(phone)).toMatchObject({ email })
    expect(await sessionUser(laptop)).toBeNull()
    const reused = await useLink(site.agent(), link, { password: "yet another long password" })
    expect(reused.status).toBe(400)
    expect(reused.text).toContain("That link no longer works")
    expect((await signIn(site.agent(), email, GOOD_PASSWORD)).headers.location).toContain("error=CredentialsSignin")
    expect((await signIn(site.agent(), email, OTHER_PASSWORD)).headers.location).not.toContain("error=")
  })

  it("change password: needs the current one, then the new one works and other sessions end", async () => {
    const site = await startPasswordSite({ adapter: adapter() })
    const email = `carol-${engine}@example.com`
    await registered(site, email)
    const desk = site.agent()
    await signIn(desk, email)
    const other = site.agent()
    await signIn(other, email)
    const refused = await post(desk, "/auth/change-password", { currentPassword: "not my password here", newPassword: OTHER_PASSWORD })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain("Your current password is not right")
    const changed = await post(desk, "/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: OTHER_PASSWORD })
    expect(changed.status).toBe(302)
    const done = await desk.get(new URL(changed.headers.location!).pathname + new URL(changed.headers.location!).search).expect(200)
    expect(done.text).toContain("Your password is changed")
    expect(await sessionUser(desk)).toMatchObject({ email })
    expect(await sessionUser(other)).toBeNull()
    expect((await signIn(site.agent(), email, OTHER_PASSWORD)).headers.location).not.toContain("error=")
  })

  it("a hash made under older parameters is upgraded on the next successful sign-in", async () => {
    const site = await startPasswordSite({ adapter: adapter() })
    const email = `dave-${engine}@example.com`
    await registered(site, email)
    const user = await adapter().getUserByEmail!(email)
    await adapter().setPasswordHash!(user!.id, await hashPassword(GOOD_PASSWORD, { ln: 14, r: 8, p: 1 }))
    const agent = site.agent()
    expect((await signIn(agent, email)).headers.location).not.toContain("error=")
    const stored = await adapter().getPasswordHash!(user!.id)
    expect(parseHash(stored!)?.params).toEqual({ ln: 17, r: 8, p: 1 })
    expect((await signIn(site.agent(), email)).headers.location).not.toContain("error=")
  })

  it("sign-up with a registered address: the same answer, and the owner is mailed a link to choose a password", async () => {
    const site = await startPasswordSite({ adapter: adapter() })
    const email = `erin-${engine}@example.com`
    await registered(site, email)
    const fresh = await signUp(site.agent(), `new-${engine}@example.com`)
    const taken = await signUp(site.agent(), email, OTHER_PASSWORD)
    expect(taken.status).toBe(fresh.status)
    // The same page but for the address each typed, which it names.
    const plain = (text: string, typed: string) => text.replace(/value="[^"]+"/g, "").replaceAll(typed, "<typed>")
    expect(plain(taken.text, email)).toBe(plain(fresh.text, `new-${engine}@example.com`))
    const mails = await site.smtp.waitFor(3)
    const owner = mails.find((m) => m.envelope.to[0] === email && /tried to create an account/.test(m.mail.subject ?? ""))
    expect(owner).toBeDefined()
    // The attempt changed nothing: the old password still works, the new one does not.
    expect((await signIn(site.agent(), email, OTHER_PASSWORD)).headers.location).toContain("error=CredentialsSignin")
    expect((await signIn(site.agent(), email)).headers.location).not.toContain("error=")
  })
})
