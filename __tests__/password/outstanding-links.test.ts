/**
 * Issue #24 (problem 10): reset links still out after a reset or a password change. Before the
 * fix each link lived its hour whatever happened meanwhile, so a second link (asked for twice, or
 * by whoever reads the user's mail) reset the password again after the user had chosen a new one.
 * Now resetting or changing the password ends every reset link of the user: the other one is
 * refused (`PasswordLinkInvalid`) and changes nothing. On the memory adapter and the SQL adapter
 * on SQLite, PostgreSQL and MariaDB, every mail read from a real SMTP sink.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import type { Adapter } from "../../lib/adapters.js"
import type { AuditRecord } from "../../lib/types.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix, type DatabaseName } from "../helpers/databases.js"
import { linkIn } from "../helpers/smtp.js"
import { GOOD_PASSWORD, OTHER_PASSWORD, post, registered, sessionUser, signIn, startPasswordSite, useLink, type PasswordSite } from "./support.js"

jest.setTimeout(120_000)

const ENGINES: Array<"memory" | DatabaseName> = ["memory", "sqlite", "postgres", "mariadb"]
const THIRD_PASSWORD = "yet another long passphrase"

describe.each(ENGINES)("outstanding reset links on %s", (engine) => {
  const prefix = uniquePrefix(`pwl_${engine.slice(0, 2)}`)
  let sql: SqlAdapterInstance | undefined
  const memory = MemoryAdapter()
  const adapter = (): Adapter => sql ?? memory

  beforeAll(async () => {
    if (engine !== "memory") sql = await openTestDatabase(engine, prefix)
  })
  afterAll(async () => {
    if (sql) await closeTestDatabase(sql, prefix)
  })

  async function site(): Promise<{ site: PasswordSite; audits: AuditRecord[] }> {
    const audits: AuditRecord[] = []
    const made = await startPasswordSite({ adapter: adapter(), config: { events: { audit: (record: AuditRecord) => void audits.push(record) } } })
    return { site: made, audits }
  }

  /** The reset links mailed so far to `email`, oldest first (other mails, such as security notices, left out). */
  const resetLinks = (made: PasswordSite, email: string) =>
    made.smtp.messages
      .filter((received) => received.envelope.to.includes(email) && /https?:\/\/\S+\/auth\/reset-password/.test(received.mail.text ?? ""))
      .map((received) => linkIn(received))

  /** Asks for a reset link for `email` and returns it, read from the mail. */
  async function askForLink(made: PasswordSite, email: string): Promise<URL> {
    const before = resetLinks(made, email).length
    expect((await post(made.agent(), "/auth/forgot-password", { email })).status).toBe(200)
    while (resetLinks(made, email).length <= before) await made.smtp.waitFor(made.smtp.messages.length + 1)
    return resetLinks(made, email)[before] as URL
  }

  const refusedLink = (audits: AuditRecord[]) => audits.filter((record) => record.type === "password.reset" && record.outcome === "failure").map((record) => record.reason)

  it("asked for twice: using one link ends the other (PasswordLinkInvalid), which changes nothing", async () => {
    const { site: made, audits } = await site()
    const email = `twice-${engine}@example.com`
    await registered(made, email)
    const first = await askForLink(made, email)
    const second = await askForLink(made, email)
    expect(second.href).not.toBe(first.href)

    const reset = await useLink(made.agent(), first, { password: OTHER_PASSWORD })
    expect(reset.status).toBe(302)
    const stale = await useLink(made.agent(), second, { password: THIRD_PASSWORD })
    expect(stale.status).toBe(400)
    expect(stale.text).toContain("That link no longer works")
    expect(refusedLink(audits)).toEqual(["PasswordLinkInvalid"])
    // The password is the one chosen with the first link.
    expect((await signIn(made.agent(), email, THIRD_PASSWORD)).headers.location).toContain("error=CredentialsSignin")
    expect((await signIn(made.agent(), email, OTHER_PASSWORD)).headers.location).not.toContain("error=")
  })

  it("changing the password ends a reset link asked for before", async () => {
    const { site: made, audits } = await site()
    const email = `changed-${engine}@example.com`
    await registered(made, email)
    const link = await askForLink(made, email)

    const desk = made.agent()
    await signIn(desk, email)
    expect(await sessionUser(desk)).toMatchObject({ email })
    const changed = await post(desk, "/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: OTHER_PASSWORD })
    expect(changed.status).toBe(302)

    const stale = await useLink(made.agent(), link, { password: THIRD_PASSWORD })
    expect(stale.status).toBe(400)
    expect(stale.text).toContain("That link no longer works")
    expect(refusedLink(audits)).toEqual(["PasswordLinkInvalid"])
    expect((await signIn(made.agent(), email, THIRD_PASSWORD)).headers.location).toContain("error=CredentialsSignin")
    expect((await signIn(made.agent(), email, OTHER_PASSWORD)).headers.location).not.toContain("error=")
  })

  it("a link asked for after the change still works (only earlier links end)", async () => {
    const { site: made } = await site()
    const email = `later-${engine}@example.com`
    await registered(made, email)
    const desk = made.agent()
    await signIn(desk, email)
    expect((await post(desk, "/auth/change-password", { currentPassword: GOOD_PASSWORD, newPassword: OTHER_PASSWORD })).status).toBe(302)
    const link = await askForLink(made, email)
    expect((await useLink(made.agent(), link, { password: THIRD_PASSWORD })).status).toBe(302)
    expect((await signIn(made.agent(), email, THIRD_PASSWORD)).headers.location).not.toContain("error=")
  })
})
