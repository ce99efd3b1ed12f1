/**
 * Issue #24 (problems 4, 5 and 7): pre-account hijacking and squatting, replayed end to end with
 * real parts: the real SMTP sink for every mail, a software authenticator for the stranger's
 * passkey, the built-in pages driven as a person drives them.
 *
 * - A password typed before the address was proved never becomes a way in: with
 *   `requireVerifiedEmail: false` the owner's magic link reclaims the account (the stranger's
 *   password account and session go); with the defaults, the stranger's sign-up confirmation link,
 *   used after the owner proved the address another way, links nothing (`PasswordLinkSuperseded`).
 * - The app's own credentials user meeting a passkey squatter of its address wins: the squatter's
 *   passkey and session go, and the right password signs the user in (before: `OAuthAccountNotLinked`
 *   for ever on a site without an email provider).
 * - Reclaim removes the squatter's two-factor enrolment and recovery codes: the owner is not
 *   stopped at the squatter's challenge.
 * - With an email provider, a passkey for a new address is created only after the address is
 *   proved: the passkey endpoints refuse a new user's registration (`EmailProofRequired`).
 */
import { afterEach, describe, expect, it } from "@jest/globals"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import Password from "../../lib/providers/password.js"
import type { AuthConfig } from "../../lib/types.js"
import type { Provider } from "../../lib/providers/types.js"
import { credentials } from "../helpers/app.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix } from "../helpers/databases.js"
import { linkIn, startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { formIn } from "../email/support.js"
import { awayFromStepEdge, codeFor, field } from "../two-factor/support.js"
import { Browser, TLS, buildApp, passkeySignIn, passkeySignUp, softFor, type Built, type Res } from "../webauthn/fixtures.js"

const VICTIM = "victim@example.com"
const PASSWORD = "the stranger's long passphrase"
const sinks: SmtpSink[] = []
const closing: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const sink of sinks.splice(0)) await sink.close()
  for (const close of closing.splice(0)) await close()
})

/** Where the chains that remove things run: the memory adapter with cookie sessions, and PostgreSQL (in a transaction) with database sessions. */
const STORAGES = [
  { name: "memory adapter, cookie sessions", strategy: "jwt" as const, adapter: async () => MemoryAdapter() as MemoryAdapterInstance },
  {
    name: "PostgreSQL, database sessions",
    strategy: "database" as const,
    adapter: async () => {
      const prefix = uniquePrefix("hijack")
      const adapter = await openTestDatabase("postgres", prefix)
      closing.push(() => closeTestDatabase(adapter, prefix))
      return adapter as unknown as MemoryAdapterInstance
    },
  },
]

const at = (res: Res) => new URL(res.headers.location ?? "", TLS.origin)

async function sink(): Promise<SmtpSink> {
  const smtp = await startSmtp()
  sinks.push(smtp)
  return smtp
}

/** An app on the HTTPS test site with `providers`, sharing `adapter` (so two apps can be one site before and after a change). */
function app(providers: Provider[], adapter: MemoryAdapterInstance, config: Partial<AuthConfig> = {}): Built {
  return buildApp({ providers, adapter, config: { logger: { error: () => undefined }, ...config } })
}

/** The `index`-th mail's link (0-based), waiting for it. */
async function linkAt(smtp: SmtpSink, index: number): Promise<URL> {
  const mails = await smtp.waitFor(index + 1)
  return linkIn(mails[index]!)
}

/** The link of the first mail whose link leads to `pathname` (other mails, such as security notices, are passed over). */
async function linkTo(smtp: SmtpSink, pathname: string, after = 0): Promise<URL> {
  for (let count = after + 1; ; count++) {
    const mail = (await smtp.waitFor(count))[count - 1]!
    const link = /https?:\/\/\S+/.test(mail.mail.text ?? "") ? linkIn(mail) : undefined
    if (link?.pathname === pathname) return link
  }
}

/** Opens a mailed link and presses its page's button, as a person does. */
async function useLink(browser: Browser, link: URL): Promise<Res> {
  const opened = await browser.get(`${link.pathname}${link.search}`)
  const form = opened.status === 200 ? formIn(opened.text ?? "") : undefined
  return form ? browser.post(form.path, form.fields) : opened
}

/** Asks for a magic link on the sign-in page's form, then follows it. */
async function signInByLink(browser: Browser, smtp: SmtpSink, email: string): Promise<Res> {
  const before = smtp.messages.length
  const asked = await browser.post("/auth/signin/nodemailer", { csrfToken: await browser.csrf(), email })
  expect(at(asked).pathname).toBe("/auth/verify-request")
  return useLink(browser, await linkTo(smtp, "/auth/callback/nodemailer", before))
}

const passwordSignUp = async (browser: Browser, email: string) =>
  browser.post("/auth/signup", { csrfToken: await browser.csrf(), email, password: PASSWORD })

const passwordSignIn = async (browser: Browser, email: string) =>
  browser.post("/auth/callback/password", { csrfToken: await browser.csrf(), email, password: PASSWORD })

/** Turns on two-factor sign-in for the signed-in browser, as a person does on the setup page. */
async function enrolTotp(browser: Browser): Promise<void> {
  const setup = await browser.get("/auth/two-factor/setup")
  expect(setup.status).toBe(200)
  const secret = (/id="two-factor-secret">([A-Z2-7 ]+)</.exec(setup.text ?? "")?.[1] ?? "").replace(/ /g, "")
  await awayFromStepEdge()
  const enrolled = await browser.post("/auth/two-factor/setup", { csrfToken: field(setup.text!, "csrfToken"), setupToken: field(setup.text!, "setupToken"), intent: "enable", code: codeFor(secret) })
  expect(enrolled.status).toBe(200)
}

/** The owner landed on the reclaim notice, and is signed in as the victim. */
async function expectReclaimed(owner: Browser, res: Res, email = VICTIM): Promise<void> {
  expect(res.status).toBe(302)
  expect(at(res).pathname).toBe("/auth/notice")
  expect(at(res).searchParams.get("type")).toBe("AccountReclaimed")
  expect((await owner.session())?.user?.email).toBe(email)
}

describe.each(STORAGES)("a password typed before the address was proved ($name)", (storage) => {
  it("requireVerifiedEmail: false — the owner's magic link reclaims the account: the stranger's password and session stop working", async () => {
    const smtp = await sink()
    const email = Nodemailer({ server: smtp.url, from: "auth@example.test" })
    const site = app([Password({ email, requireVerifiedEmail: false }), email], await storage.adapter(), { session: { strategy: storage.strategy } })

    // The stranger signs up with the victim's address and signs in at once.
    const stranger = new Browser(site.app)
    expect((await passwordSignUp(stranger, VICTIM)).status).toBe(200)
    await smtp.waitFor(1) // the confirmation mail goes to the victim, who ignores it
    const signedIn = await passwordSignIn(stranger, VICTIM)
    expect(at(signedIn).searchParams.get("error")).toBeNull()
    expect((await stranger.session())?.user?.email).toBe(VICTIM)

    // The owner proves the address by magic link.
    const owner = new Browser(site.app)
    await expectReclaimed(owner, await signInByLink(owner, smtp, VICTIM))
    const user = (await site.adapter.getUserByEmail(VICTIM))!
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect((await site.adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).toEqual(["nodemailer"])

    // The stranger: signed out, and the password no longer signs anyone in.
    expect(await stranger.session()).toBeNull()
    const again = new Browser(site.app)
    const refused = await passwordSignIn(again, VICTIM)
    expect(at(refused).searchParams.get("error")).toBe("CredentialsSignin")
    expect(await again.session()).toBeNull()
    expect((await owner.session())?.user?.email).toBe(VICTIM)
  })

  it("requireVerifiedEmail: false — the owner's reset link takes the account back: the stranger's two-factor enrolment goes with his password", async () => {
    const smtp = await sink()
    const email = Nodemailer({ server: smtp.url, from: "auth@example.test" })
    const site = app([Password({ email, requireVerifiedEmail: false })], await storage.adapter(), { session: { strategy: storage.strategy }, twoFactor: { issuer: "Gatehouse Test" } })

    // The stranger signs up with the victim's address, signs in, and turns on two-factor sign-in.
    const stranger = new Browser(site.app)
    expect((await passwordSignUp(stranger, VICTIM)).status).toBe(200)
    await smtp.waitFor(1)
    await passwordSignIn(stranger, VICTIM)
    await enrolTotp(stranger)
    const user = (await site.adapter.getUserByEmail(VICTIM))!
    expect(await site.adapter.getTwoFactor(user.id)).not.toBeNull()

    // The owner asks for a reset link and chooses her password.
    const owner = new Browser(site.app)
    expect((await owner.post("/auth/forgot-password", { csrfToken: await owner.csrf(), email: VICTIM })).status).toBe(200)
    const link = await linkTo(smtp, "/auth/reset-password")
    const opened = await owner.get(`${link.pathname}${link.search}`)
    const form = formIn(opened.text ?? "")!
    await expectReclaimed(owner, await owner.post(form.path, { ...form.fields, password: "the owner's own passphrase" }))
    expect(await site.adapter.getTwoFactor(user.id)).toBeNull()
    expect(await site.adapter.countRecoveryCodes(user.id)).toBe(0)
    expect(await stranger.session()).toBeNull()
    const tried = new Browser(site.app)
    expect(at(await passwordSignIn(tried, VICTIM)).searchParams.get("error")).toBe("CredentialsSignin")
  })

  it("defaults — the stale sign-up confirmation link, used after the owner proved the address by magic link, links nothing", async () => {
    const smtp = await sink()
    const email = Nodemailer({ server: smtp.url, from: "auth@example.test" })
    const site = app([Password({ email }), email], await storage.adapter(), { session: { strategy: storage.strategy } })

    // The stranger signs up with the victim's address: a confirmation link goes to the victim.
    const stranger = new Browser(site.app)
    expect((await passwordSignUp(stranger, VICTIM)).status).toBe(200)
    const stale = await linkAt(smtp, 0)
    expect(stale.pathname).toBe("/auth/verify-email")

    // The owner signs in by magic link (the address is proved now) ...
    const owner = new Browser(site.app)
    const linked = await signInByLink(owner, smtp, VICTIM)
    expect(at(linked).pathname).toBe("/")
    const user = (await site.adapter.getUserByEmail(VICTIM))!
    expect(user.emailVerified).toBeInstanceOf(Date)

    // ... and later presses the confirmation link found in her inbox: it is refused.
    const pressed = await useLink(owner, stale)
    expect(pressed.status).toBe(400)
    expect(pressed.text).toContain("the address was confirmed another way since it was sent")
    expect((await site.adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).toEqual(["nodemailer"])
    expect((await owner.session())?.user?.email).toBe(VICTIM)

    // The stranger's password is no way into the owner's account.
    const tried = new Browser(site.app)
    const refused = await passwordSignIn(tried, VICTIM)
    expect(at(refused).searchParams.get("error")).toBe("CredentialsSignin")
    expect(await tried.session()).toBeNull()
  })
})

describe.each(STORAGES)("the app's credentials user meets a passkey squatter of its address, no email provider ($name)", (storage) => {
  const ALICE = "alice@example.com" // the credentials user of the test app (id user-alice, password correct-horse)

  async function squatted(config: Partial<AuthConfig> = {}) {
    const site = app([Passkey(), credentials()], await storage.adapter(), { session: { strategy: storage.strategy }, ...config })
    const soft = softFor()
    const stranger = new Browser(site.app)
    const { res } = await passkeySignUp(stranger, soft, ALICE)
    expect(res.status).toBe(302)
    expect((await stranger.session())?.user?.email).toBe(ALICE)
    return { site, soft, stranger }
  }

  const signInAlice = async (browser: Browser) =>
    browser.post("/auth/callback/credentials", { csrfToken: await browser.csrf(), username: "alice", password: "correct-horse" })

  it("the right password signs the user in; the squatter's passkey and open session stop working", async () => {
    const { site, soft, stranger } = await squatted()
    const owner = new Browser(site.app)
    await expectReclaimed(owner, await signInAlice(owner), ALICE)
    const user = (await site.adapter.getUserByEmail(ALICE))!
    expect((await site.adapter.listAccountsByUserId(user.id)).map((account) => account.provider)).toEqual(["credentials"])
    expect(await site.adapter.listAuthenticatorsByUserId(user.id)).toEqual([])

    expect(await stranger.session()).toBeNull()
    const again = new Browser(site.app)
    const { res } = await passkeySignIn(again, soft)
    expect(at(res).searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(await again.session()).toBeNull()

    // And every later sign-in works as usual.
    const later = new Browser(site.app)
    expect(at(await signInAlice(later)).pathname).toBe("/")
    expect((await later.session())?.user?.email).toBe(ALICE)
  })

  it('accountLinking "refuse": UnverifiedAccountExists (the documented way out), not a silent lock-out', async () => {
    const { site, stranger } = await squatted({ accountLinking: { unverifiedEmail: "refuse" } })
    const owner = new Browser(site.app)
    const refused = await signInAlice(owner)
    expect(at(refused).searchParams.get("error")).toBe("UnverifiedAccountExists")
    expect(await owner.session()).toBeNull()
    expect((await stranger.session())?.user?.email).toBe(ALICE)
  })
})

describe.each(STORAGES)("reclaim removes the squatter's two-factor enrolment ($name)", (storage) => {
  it("the owner's magic link is not stopped at the squatter's TOTP challenge; the enrolment and recovery codes are gone", async () => {
    const smtp = await sink()
    const adapter = await storage.adapter()
    const twoFactor = { issuer: "Gatehouse Test" }
    const session = { strategy: storage.strategy }
    // The site had passkeys only when the stranger came; it added email sign-in later.
    const before = app([Passkey()], adapter, { twoFactor, session })
    const soft = softFor()
    const stranger = new Browser(before.app)
    expect((await passkeySignUp(stranger, soft, VICTIM)).res.status).toBe(302)
    // The stranger turns on two-factor sign-in for the squatted user.
    await enrolTotp(stranger)
    const squatted = (await adapter.getUserByEmail(VICTIM))!
    expect(await adapter.getTwoFactor(squatted.id)).not.toBeNull()
    expect(await adapter.countRecoveryCodes(squatted.id)).toBe(10)

    const records: { type: string }[] = []
    const audit = (record: { type: string }) => void records.push(record)
    const after = app([Passkey(), Nodemailer({ server: smtp.url, from: "auth@example.test" })], adapter, { twoFactor, session, events: { audit } })
    const owner = new Browser(after.app)
    await expectReclaimed(owner, await signInByLink(owner, smtp, VICTIM))
    expect(await adapter.getTwoFactor(squatted.id)).toBeNull()
    expect(await adapter.countRecoveryCodes(squatted.id)).toBe(0)
    expect(await adapter.listAuthenticatorsByUserId(squatted.id)).toEqual([])
    expect(records.filter((record) => record.type === "account.reclaimed")).toEqual([
      expect.objectContaining({ userId: squatted.id, provider: "nodemailer", removedAccounts: ["passkey"], removedPasskeys: 1, removedTwoFactor: true }),
    ])
    // The stranger's open session, on the site as it is now, is over.
    const strangerNow = new Browser(after.app)
    for (const [name, value] of stranger.jar) strangerNow.jar.set(name, value)
    expect(await strangerNow.session()).toBeNull()
  })
})

describe("with an email provider, a passkey for a new address proves the address first", () => {
  it("the options endpoint refuses a new user's registration (EmailProofRequired) and stores nothing", async () => {
    const smtp = await sink()
    const site = app([Passkey(), Nodemailer({ server: smtp.url })], MemoryAdapter() as MemoryAdapterInstance)
    const stranger = new Browser(site.app)
    for (const query of [`email=${encodeURIComponent(VICTIM)}`, `email=${encodeURIComponent(VICTIM)}&action=register`]) {
      const options = await stranger.options(query)
      expect(options.status).toBe(400)
      expect(options.body.error?.type).toBe("EmailProofRequired")
    }
    expect(await site.adapter.getUserByEmail(VICTIM)).toBeNull()
    expect(await stranger.session()).toBeNull()
  })

  it("a registration challenge got elsewhere (the same site before email sign-in was added) creates nobody", async () => {
    const smtp = await sink()
    const adapter = MemoryAdapter() as MemoryAdapterInstance
    const before = app([Passkey()], adapter)
    const after = app([Passkey(), Nodemailer({ server: smtp.url })], adapter)
    const soft = softFor()
    const stranger = new Browser(before.app)
    const options = await stranger.options(`email=${encodeURIComponent(VICTIM)}`)
    expect(options.body.action).toBe("register")
    const onNewSite = new Browser(after.app)
    for (const [name, value] of stranger.jar) onNewSite.jar.set(name, value)
    const res = await onNewSite.callback("register", soft.register(options.body.options))
    expect(res.status).toBe(302)
    expect(at(res).searchParams.get("error")).toBe("EmailProofRequired")
    expect(await adapter.getUserByEmail(VICTIM)).toBeNull()
    expect(await onNewSite.session()).toBeNull()
  })

  it("a passkey-only site still registers a new address at once (unproven, to be reclaimed by a later proof)", async () => {
    const site = app([Passkey()], MemoryAdapter() as MemoryAdapterInstance)
    const browser = new Browser(site.app)
    const { res } = await passkeySignUp(browser, softFor(), VICTIM)
    expect(res.status).toBe(302)
    expect((await site.adapter.getUserByEmail(VICTIM))!.emailVerified).toBeNull()
  })
})
