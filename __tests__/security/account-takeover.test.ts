/**
 * Issue #12, pre-account hijacking, replayed end to end with real parts: a software authenticator
 * for the stranger's passkey, the real SMTP sink for the owner's magic link, and (below) the real
 * OpenID provider with and without `email_verified`.
 *
 * The attack: a stranger registers a passkey naming victim@example.com (a user is stored with that
 * address, unproven). Later the real owner signs in by magic link. Before the fix, the owner was
 * signed into the stranger's user and the stranger's passkey (and open session) kept working in the
 * owner's account. Now (default `accountLinking.unverifiedEmail: "reclaim"`) the stranger's methods
 * are removed and every session of that user ends before the owner is signed in, and the owner is
 * told on a notice page; with "refuse", the owner's sign-in is refused and nothing changes.
 */
import { afterEach, describe, expect, it } from "@jest/globals"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import type { AuthConfig } from "../../lib/types.js"
import { startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { formIn, linkIn } from "../email/support.js"
import { Browser, TLS, buildApp, passkeySignIn, passkeySignUp, softFor, type Built, type Res } from "../webauthn/fixtures.js"

const VICTIM = "victim@example.com"
const sinks: SmtpSink[] = []
afterEach(async () => {
  for (const sink of sinks.splice(0)) await sink.close()
})

async function site(config: Partial<AuthConfig> = {}): Promise<Built & { smtp: SmtpSink }> {
  const smtp = await startSmtp()
  sinks.push(smtp)
  const built = buildApp({ providers: [Passkey(), Nodemailer({ server: smtp.url })], config: { logger: { error: () => undefined }, ...config } })
  return { ...built, smtp }
}

const at = (res: Res) => new URL(res.headers.location ?? "", TLS.origin)

/** Asks for a magic link as the sign-in page's form does, and follows it as a person does. */
async function signInByLink(browser: Browser, smtp: SmtpSink, email: string): Promise<Res> {
  const asked = await browser.post("/auth/signin/nodemailer", { csrfToken: await browser.csrf(), email })
  expect(at(asked).pathname).toBe("/auth/verify-request")
  const mails = await smtp.waitFor(smtp.messages.length || 1)
  const link = linkIn(mails[mails.length - 1]!)
  const opened = await browser.get(`${link.pathname}${link.search}`)
  // Scanner-safe links (issue #19) show a confirm page whose button signs in.
  const form = opened.status === 200 ? formIn(opened.text ?? "") : undefined
  return form ? browser.post(form.path, form.fields) : opened
}

/**
 * The stranger's attack: a passkey registered for the victim's address, and signed in with it. With
 * an email provider the passkey endpoints prove a new address first (issue #24), so the squat
 * happens on the same site (same adapter and secret) while it had passkeys only; it added email
 * sign-in later. The stranger's browser is then on the site as it is now.
 */
async function squat(built: Built) {
  const soft = softFor()
  const before = buildApp({ providers: [Passkey()], adapter: built.adapter, config: { logger: { error: () => undefined }, session: built.config.session, accountLinking: built.config.accountLinking } })
  const early = new Browser(before.app)
  const { res } = await passkeySignUp(early, soft, VICTIM)
  expect(res.status).toBe(302)
  const stranger = new Browser(built.app)
  for (const [name, value] of early.jar) stranger.jar.set(name, value)
  expect((await stranger.session())?.user?.email).toBe(VICTIM)
  const squatted = (await built.adapter.getUserByEmail(VICTIM))!
  expect(squatted.emailVerified).toBeNull()
  return { soft, stranger, squatted }
}

describe.each(["database", "jwt"] as const)("a squatted passkey meets the owner's magic link (%s sessions)", (strategy) => {
  it("reclaim (default): the owner is signed in and told; the stranger's passkey and open session stop working", async () => {
    const built = await site({ session: { strategy } })
    const { soft, stranger, squatted } = await squat(built)

    const owner = new Browser(built.app)
    const signedIn = await signInByLink(owner, built.smtp, VICTIM)
    expect(signedIn.status).toBe(302)
    const notice = at(signedIn)
    expect(notice.pathname).toBe("/auth/notice")
    expect(notice.searchParams.get("type")).toBe("AccountReclaimed")
    const page = await owner.get(`${notice.pathname}${notice.search}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain("Your account is secured")
    expect(page.text).toContain(`href="${TLS.origin}/"`)

    // The owner has the account: same user row, now proven, with only the email account.
    expect((await owner.session())?.user?.email).toBe(VICTIM)
    const user = (await built.adapter.getUserByEmail(VICTIM))!
    expect(user.id).toBe(squatted.id)
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect(await built.adapter.listAuthenticatorsByUserId(user.id)).toEqual([])
    expect((await built.adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).toEqual(["nodemailer"])

    // The stranger: the open session reads as signed out, and the passkey signs nobody in.
    expect(await stranger.session()).toBeNull()
    const again = new Browser(built.app)
    const { res } = await passkeySignIn(again, soft)
    expect(at(res).searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(await again.session()).toBeNull()
    expect((await owner.session())?.user?.email).toBe(VICTIM)
  })

  it('refuse: the owner\'s link is refused with UnverifiedAccountExists and nothing changes', async () => {
    const built = await site({ session: { strategy }, accountLinking: { unverifiedEmail: "refuse" } })
    const { soft, stranger } = await squat(built)
    const owner = new Browser(built.app)
    const refused = await signInByLink(owner, built.smtp, VICTIM)
    expect(at(refused).pathname).toBe("/auth/signin")
    expect(at(refused).searchParams.get("error")).toBe("UnverifiedAccountExists")
    expect(await owner.session()).toBeNull()
    const page = await owner.get(`${at(refused).pathname}${at(refused).search}`)
    expect(page.text).toContain("was set up without proving the address")
    // Unchanged: the stranger's user is still unproven (the app's way out is to remove it).
    expect((await built.adapter.getUserByEmail(VICTIM))!.emailVerified).toBeNull()
    expect((await stranger.session())?.user?.email).toBe(VICTIM)
    const { res } = await passkeySignIn(new Browser(built.app), soft)
    expect(res.status).toBe(302)
    expect(at(res).searchParams.get("error")).toBeNull()
  })
})

describe("a passkey for an address that has a user", () => {
  it("the registrant cannot sign in as that user, and the owner is not locked out: a link signs them in", async () => {
    const built = await site()
    const owner = new Browser(built.app)
    await signInByLink(owner, built.smtp, VICTIM)
    expect((await owner.session())?.user?.email).toBe(VICTIM)
    // Without the owner's session, a registration naming the address is refused.
    const stranger = new Browser(built.app)
    const options = await stranger.options(`email=${encodeURIComponent(VICTIM)}&action=register`)
    expect(options.status).toBe(400)
    expect(options.body.error?.type).toBe("WebAuthnVerificationError")
    expect(await built.adapter.listAuthenticatorsByUserId((await built.adapter.getUserByEmail(VICTIM))!.id)).toEqual([])
    // The owner signs in again by link, whatever was tried.
    const later = new Browser(built.app)
    expect(at(await signInByLink(later, built.smtp, VICTIM)).pathname).toBe("/")
  })
})

describe("creating a first passkey from the sign-in page proves the address first", () => {
  it("the create form mails a link; its sign-in lands on passkey-setup, where the proven user registers a passkey", async () => {
    const built = await site()
    const person = new Browser(built.app)
    // Step two of the identifier-first page (issue #26), for the address typed on step one.
    const signinPage = await person.get(`/auth/signin?login_hint=${encodeURIComponent(VICTIM)}`)
    const section = signinPage.text!.slice(signinPage.text!.indexOf("New here? Create a passkey"))
    const create = formIn(section.slice(0, section.indexOf("</form>") + 7))!
    expect(create.path).toBe("/auth/signin/nodemailer")
    const setup = new URL(create.fields.callbackUrl!)
    expect(setup.pathname).toBe("/auth/passkey-setup/passkey")

    const asked = await person.post(create.path, { ...create.fields, email: VICTIM })
    expect(at(asked).pathname).toBe("/auth/verify-request")
    const [mail] = await built.smtp.waitFor(1)
    const link = linkIn(mail!)
    expect(new URL(link.searchParams.get("callbackUrl")!).pathname).toBe("/auth/passkey-setup/passkey")
    const opened = await person.get(`${link.pathname}${link.search}`)
    const confirm = opened.status === 200 ? formIn(opened.text ?? "") : undefined
    const landed = confirm ? await person.post(confirm.path, confirm.fields) : opened
    expect(at(landed).pathname).toBe("/auth/passkey-setup/passkey")
    const user = (await built.adapter.getUserByEmail(VICTIM))!
    expect(user.emailVerified).toBeInstanceOf(Date)

    const page = await person.get(`${at(landed).pathname}${at(landed).search}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain("Create a passkey")
    // The page's script asks for registration options: the signed-in user's.
    const options = await person.options("action=register")
    expect(options.body.action).toBe("register")
    const soft = softFor()
    const registered = await person.callback("register", soft.register(options.body.options))
    expect(registered.status).toBe(302)
    expect((await built.adapter.listAuthenticatorsByUserId(user.id)).map((passkey) => passkey.credentialID)).toEqual([soft.id])
    // The passkey now signs the proven user in.
    const elsewhere = new Browser(built.app)
    await passkeySignIn(elsewhere, soft)
    expect((await elsewhere.session())?.user?.email).toBe(VICTIM)
  })

  it("signed out, passkey-setup sends the browser to sign in and back", async () => {
    const built = await site()
    const res = await new Browser(built.app).get("/auth/passkey-setup?callbackUrl=%2Fdashboard")
    expect(res.status).toBe(302)
    const to = at(res)
    expect(to.pathname).toBe("/auth/signin")
    expect(new URL(to.searchParams.get("callbackUrl")!).pathname).toBe("/auth/passkey-setup/passkey")
  })
})

describe("the per-inbox limit on sign-in emails", () => {
  it("sub-addresses and dotted Gmail spellings of one inbox share the limit; the stored address is the one typed", async () => {
    const built = await site({ rateLimit: { enabled: true, email: { identifier: { limit: 3, window: 600 }, ip: false } } })
    const browser = new Browser(built.app)
    const statuses: number[] = []
    for (const email of ["bob+1@gmail.com", "bob+2@gmail.com", "b.ob@googlemail.com", "bob@gmail.com"]) {
      const res = await browser.post("/auth/signin/nodemailer", { csrfToken: await browser.csrf(), email })
      statuses.push(res.status)
    }
    expect(statuses).toEqual([302, 302, 302, 429])
    const mails = await built.smtp.waitFor(3)
    expect(mails.map((mail) => mail.envelope.to[0])).toEqual(["bob+1@gmail.com", "bob+2@gmail.com", "b.ob@googlemail.com"])
    // Another inbox is not limited.
    expect((await browser.post("/auth/signin/nodemailer", { csrfToken: await browser.csrf(), email: "carol@gmail.com" })).status).toBe(302)
  })
})
