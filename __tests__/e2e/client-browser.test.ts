/**
 * gatehouse/client in real Chromium (issue #35): the module as a page imports it, talking to a
 * real Gatehouse app on localhost (passkeys need it) with every sign-in method, a real SMTP sink
 * for the email code, and Chromium's virtual authenticator for passkeys. Each call runs in the
 * page; what it resolved to or threw comes back as data.
 */
import type { Page } from "playwright-core"
import { codeAt } from "../../lib/two-factor/totp.js"
import { addVirtualAuthenticator, browserSuite, recordCeremonies } from "./harness.js"
import { PASSWORD_USER, clientApp, openApp } from "./support/client-app.js"

const setup = await clientApp()
const suite = browserSuite(setup.app, "localhost")
afterAll(() => setup.close())

async function appPage(options: Parameters<typeof openApp>[2] = {}): Promise<Page> {
  const { page } = await suite.newPage({ locale: "en-US" })
  await openApp(page, suite.origin, options)
  return page
}

const signInWithPassword = (page: Page, username: string) =>
  page.evaluate((username) => window.settle(window.auth.signIn("credentials", { username, password: "pw" })), username)

const status = (page: Page) => page.evaluate(() => window.auth.getState().status)

test("the state starts loading, the first subscriber fetches it; getSession is null signed out", async () => {
  const page = await appPage()
  expect(await page.evaluate(() => window.gatehouse.createAuthClient({ broadcast: false }).getState())).toEqual({ data: null, status: "loading" })
  await page.waitForFunction(() => window.auth.getState().status !== "loading")
  expect(await page.evaluate(() => window.states)).toEqual(["unauthenticated"])
  expect(await page.evaluate(() => window.auth.getSession())).toBeNull()
  const providers = await page.evaluate(() => window.auth.getProviders())
  expect(providers.map((provider) => [provider.id, provider.type])).toEqual([
    ["credentials", "credentials"],
    ["password", "credentials"],
    ["nodemailer", "email"],
    ["passkey", "webauthn"],
    ["github", "oauth"],
  ])
})

test("credentials: the right password signs in; a wrong one is an AuthClientError with the server's type", async () => {
  const page = await appPage()
  const wrong = await page.evaluate(() => window.settle(window.auth.signIn("credentials", { username: "ada", password: "nope" })))
  expect(wrong.error).toEqual({ type: "CredentialsSignin", status: 400, name: "AuthClientError", isClientError: true })
  expect(await status(page)).toBe("unauthenticated")

  const right = await signInWithPassword(page, "ada")
  expect(right.value).toMatchObject({ status: "authenticated", session: { user: { name: "ada", email: "ada@example.test" } } })
  expect(await status(page)).toBe("authenticated")
  expect(await page.evaluate(() => window.auth.getSession())).toMatchObject({ user: { email: "ada@example.test" } })
})

test("Password provider: email and password sign in; a wrong password is CredentialsSignin", async () => {
  const page = await appPage()
  const wrong = await page.evaluate((email) => window.settle(window.auth.signIn("password", { email, password: "wrong password here" })), PASSWORD_USER.email)
  expect(wrong.error?.type).toBe("CredentialsSignin")
  const right = await page.evaluate((user) => window.settle(window.auth.signIn("password", user)), PASSWORD_USER)
  expect(right.value).toMatchObject({ status: "authenticated", session: { user: { email: PASSWORD_USER.email } } })
})

test("Password provider: signUp sends the confirmation mail (a weak password is WeakPassword, nothing sent); requestReset sends a reset link", async () => {
  const page = await appPage()
  const before = setup.smtp.messages.length
  const weak = await page.evaluate(() => window.settle(window.auth.password.signUp({ email: "newcomer@example.test", password: "short" })))
  expect(weak.error).toMatchObject({ type: "WeakPassword", status: 400 })
  const sent = await page.evaluate(() => window.settle(window.auth.password.signUp({ email: "newcomer@example.test", password: "a long enough passphrase 7", name: "New Comer" })))
  expect(sent.value).toEqual({ status: "email-sent", email: "newcomer@example.test" })
  const [confirm] = (await setup.smtp.waitFor(before + 1)).slice(before)
  expect(confirm!.envelope.to).toEqual(["newcomer@example.test"])
  expect(confirm!.mail.text).toMatch(/\/auth\/verify-email\?/)
  // Signing up is not signing in: the address is proved first.
  expect(await status(page)).toBe("unauthenticated")

  const reset = await page.evaluate((email) => window.settle(window.auth.password.requestReset(email)), PASSWORD_USER.email)
  expect(reset.value).toEqual({ status: "email-sent", email: PASSWORD_USER.email })
  const [link] = (await setup.smtp.waitFor(before + 2)).slice(before + 1)
  expect(link!.envelope.to).toEqual([PASSWORD_USER.email])
  expect(link!.mail.text).toMatch(/\/auth\/reset-password\?/)
})

test("email code: the mail is sent, a wrong code is refused, the code from the mail signs in", async () => {
  const page = await appPage()
  const before = setup.smtp.messages.length
  const sent = await page.evaluate(() => window.settle(window.auth.signIn("nodemailer", { email: "coder@example.test" })))
  expect(sent.value).toEqual({ status: "email-sent", email: "coder@example.test" })
  const [mail] = (await setup.smtp.waitFor(before + 1)).slice(before)
  expect(mail!.envelope.to).toEqual(["coder@example.test"])
  const code = /: ([0-9 ]+)$/m.exec(mail!.mail.text ?? "")![1]!.replaceAll(" ", "")
  const wrongCode = code.startsWith("1") ? `2${code.slice(1)}` : `1${code.slice(1)}`

  const wrong = await page.evaluate((code) => window.settle(window.auth.signIn("nodemailer", { code })), wrongCode)
  expect(wrong.error?.type).toBe("EmailCodeInvalid")
  const right = await page.evaluate((code) => window.settle(window.auth.signIn("nodemailer", { code })), code)
  expect(right.value).toMatchObject({ status: "authenticated", session: { user: { email: "coder@example.test" } } })
})

test("OAuth: signIn with redirect false answers the provider's authorization URL and stays on the page", async () => {
  const page = await appPage()
  const result = await page.evaluate(() => window.auth.signIn("github", { redirect: false, callbackUrl: "/after" }))
  expect(result.status).toBe("redirect")
  const url = new URL((result as { url: string }).url)
  expect(url.origin + url.pathname).toBe("https://github.com/login/oauth/authorize")
  expect(url.searchParams.get("client_id")).toBe("client-e2e")
  expect(url.searchParams.get("redirect_uri")).toBe(`${suite.origin}/auth/callback/github`)
  expect(page.url()).toBe(`${suite.origin}/app`)
  const unknown = await page.evaluate(() => window.settle(window.auth.signIn("nope")))
  expect(unknown.error?.type).toBe("InvalidProvider")
})

test("passkeys: a signed-in user registers one (with its name); signed out, it signs in, also through autofill", async () => {
  const { context, page } = await suite.newPage({ locale: "en-US" })
  const ceremonies = await recordCeremonies(context)
  await openApp(page, suite.origin)
  const authenticator = await addVirtualAuthenticator(page)
  expect(await page.evaluate(() => window.auth.passkey.isSupported())).toBe(true)
  expect((await signInWithPassword(page, "keyholder")).value?.status).toBe("authenticated")
  await page.evaluate(() => window.auth.passkey.register({ name: "Work laptop" }))
  expect(await authenticator.credentials()).toHaveLength(1)
  const stored = await setup.adapter.listAuthenticatorsByUserId!("u-keyholder")
  expect(stored.map((passkey) => (passkey as { name?: string }).name)).toEqual(["Work laptop"])

  await page.evaluate(() => window.auth.signOut())
  expect(await status(page)).toBe("unauthenticated")
  const modal = await page.evaluate(() => window.settle(window.auth.passkey.signIn()))
  expect(modal.value).toMatchObject({ status: "authenticated", session: { user: { name: "keyholder" } } })

  await page.evaluate(() => window.auth.signOut())
  // Conditional UI: the virtual authenticator answers the autofill request by itself.
  const autofill = await page.evaluate(() => window.settle(window.auth.passkey.signIn({ conditional: true })))
  expect(autofill.value).toMatchObject({ status: "authenticated", session: { user: { name: "keyholder" } } })
  expect(ceremonies.calls.map((call) => [call.method, call.mediation, call.outcome])).toEqual([
    ["create", "modal", "resolved"],
    ["get", "modal", "resolved"],
    ["get", "conditional", "resolved"],
  ])
})

/** Two-factor enrolment of the signed-in user on the server's own page; then signed out, back on /app. */
async function enrolTwoFactor(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.goto(`${suite.origin}/auth/two-factor/setup?callbackUrl=${encodeURIComponent(`${suite.origin}/app`)}`)
  const secret = ((await page.locator("#two-factor-secret").textContent()) ?? "").replace(/\s/g, "")
  await page.locator('input[name="code"]').fill(codeAt(secret))
  await page.locator('input[name="code"]').press("Enter")
  const recoveryCodes = await page.locator("#recovery-codes code").allTextContents()
  await page.context().clearCookies()
  await openApp(page, suite.origin)
  return { secret, recoveryCodes }
}

test("two-factor: the sign-in waits for its second factor (pending-second-factor), a wrong code is refused, the TOTP code completes it", async () => {
  const page = await appPage()
  expect((await signInWithPassword(page, "twofa")).value?.status).toBe("authenticated")
  const { secret } = await enrolTwoFactor(page)
  // No sign-in waits: the server says so.
  const early = await page.evaluate(() => window.settle(window.auth.verifySecondFactor({ code: "123456" })))
  expect(early.error).toMatchObject({ type: "TwoFactorExpired", isClientError: true })
  expect(await status(page)).toBe("unauthenticated")

  const first = await signInWithPassword(page, "twofa")
  expect(first.value).toEqual({ status: "pending-second-factor", methods: ["totp", "recovery"] })
  expect(await status(page)).toBe("pending-second-factor")
  expect(await page.evaluate(() => window.auth.getSession())).toBeNull()
  expect(await status(page)).toBe("pending-second-factor")
  // A reload of the tab asks the server: the step still waits.
  await openApp(page, suite.origin)
  await page.waitForFunction(() => window.auth.getState().status !== "loading")
  expect(await page.evaluate(() => window.states)).toEqual(["pending-second-factor"])

  const wrong = await page.evaluate(() => window.settle(window.auth.verifySecondFactor({ code: "000000" })))
  expect(wrong.error?.type).toBe("TwoFactorCodeInvalid")
  expect(await status(page)).toBe("pending-second-factor")
  // The enrolment used this 30-second step's code: the next step's (accepted within one step).
  const right = await page.evaluate((code) => window.settle(window.auth.verifySecondFactor({ code })), codeAt(secret, Date.now() + 30_000))
  expect(right.value).toMatchObject({ status: "authenticated", session: { user: { name: "twofa" } } })
  expect(await page.evaluate(() => window.states)).toEqual(["pending-second-factor", "authenticated"])
  // Signed in, the tab forgets the step: after signing out, a reload is simply signed out.
  await page.evaluate(() => window.auth.signOut())
  await openApp(page, suite.origin)
  await page.waitForFunction(() => window.auth.getState().status !== "loading")
  expect(await status(page)).toBe("unauthenticated")
})

test("two-factor: a passkey (verifySecondFactor({ passkey: true })) or a recovery code completes the pending sign-in", async () => {
  const page = await appPage()
  await addVirtualAuthenticator(page)
  expect((await signInWithPassword(page, "both")).value?.status).toBe("authenticated")
  await page.evaluate(() => window.auth.passkey.register())
  const { recoveryCodes } = await enrolTwoFactor(page)
  expect(recoveryCodes.length).toBeGreaterThan(0)

  expect((await signInWithPassword(page, "both")).value).toEqual({ status: "pending-second-factor", methods: ["totp", "recovery", "passkey"] })
  const withPasskey = await page.evaluate(() => window.settle(window.auth.verifySecondFactor({ passkey: true })))
  expect(withPasskey.value).toMatchObject({ status: "authenticated", session: { user: { name: "both" }, amr: ["pwd", "hwk"] } })

  await page.evaluate(() => window.auth.signOut())
  expect((await signInWithPassword(page, "both")).value?.status).toBe("pending-second-factor")
  const withRecovery = await page.evaluate((recoveryCode) => window.settle(window.auth.verifySecondFactor({ recoveryCode })), recoveryCodes[0]!)
  expect(withRecovery.value).toMatchObject({ status: "authenticated", session: { user: { name: "both" } } })
})

test("updateSession sends its data to the server and returns the updated session", async () => {
  const page = await appPage()
  await signInWithPassword(page, "painter")
  const updated = await page.evaluate(() => window.auth.updateSession({ theme: "dark" }))
  expect(updated).toMatchObject({ user: { name: "painter" }, theme: "dark" })
  expect(await page.evaluate(() => window.auth.getSession())).toMatchObject({ theme: "dark" })
})

test("listSessions and revokeSession: the other device's session ends", async () => {
  const laptop = await appPage()
  const phone = await appPage()
  await signInWithPassword(laptop, "traveller")
  await signInWithPassword(phone, "traveller")
  const sessions = await laptop.evaluate(() => window.auth.listSessions())
  expect(sessions).toHaveLength(2)
  expect(sessions.filter((session) => session.current)).toHaveLength(1)
  const other = sessions.find((session) => !session.current)!
  expect(await laptop.evaluate((id) => window.auth.revokeSession(id), other.id)).toBe(1)
  expect(await phone.evaluate(() => window.auth.getSession())).toBeNull()
  expect(await laptop.evaluate(() => window.auth.getSession())).toMatchObject({ user: { name: "traveller" } })
  expect(await laptop.evaluate(() => window.auth.listSessions())).toHaveLength(1)
})

test("signing in and out in one tab reaches the other tab of the browser (BroadcastChannel)", async () => {
  const first = await appPage({ refetchOnWindowFocus: false })
  const second = await first.context().newPage()
  await openApp(second, suite.origin, { refetchOnWindowFocus: false })
  await second.waitForFunction(() => window.auth.getState().status === "unauthenticated")

  await signInWithPassword(first, "tabby")
  await second.waitForFunction(() => window.auth.getState().status === "authenticated")
  await first.evaluate(() => window.auth.signOut())
  await second.waitForFunction(() => window.auth.getState().status === "unauthenticated")
  expect(await second.evaluate(() => window.states)).toEqual(["unauthenticated", "authenticated", "unauthenticated"])
})

test("without BroadcastChannel, the tabs hear each other through the storage event", async () => {
  const { context, page: first } = await suite.newPage({ locale: "en-US" })
  await context.addInitScript(() => {
    delete (window as { BroadcastChannel?: unknown }).BroadcastChannel
  })
  const second = await context.newPage()
  await openApp(first, suite.origin, { refetchOnWindowFocus: false })
  await openApp(second, suite.origin, { refetchOnWindowFocus: false })
  expect(await second.evaluate(() => typeof BroadcastChannel)).toBe("undefined")
  await second.waitForFunction(() => window.auth.getState().status === "unauthenticated")

  await signInWithPassword(first, "oldtimer")
  await second.waitForFunction(() => window.auth.getState().status === "authenticated")
  await first.evaluate(() => window.auth.signOut())
  await second.waitForFunction(() => window.auth.getState().status === "unauthenticated")
})

test("the session is refetched when the window gets the focus, and on the interval the app set", async () => {
  const focused = await appPage({ broadcast: false })
  await signInWithPassword(focused, "focus")
  // Signed out behind the client's back: nothing tells it until it asks.
  await focused.context().clearCookies()
  expect(await status(focused)).toBe("authenticated")
  await focused.evaluate(() => window.dispatchEvent(new Event("focus")))
  await focused.waitForFunction(() => window.auth.getState().status === "unauthenticated")

  const polled = await appPage({ broadcast: false, refetchOnWindowFocus: false, refetchInterval: 1 })
  await signInWithPassword(polled, "poller")
  await polled.context().clearCookies()
  await polled.waitForFunction(() => window.auth.getState().status === "unauthenticated")
})

test("CSRF is handled inside: a token gone stale is fetched again and the POST retried once", async () => {
  const page = await appPage()
  const csrfRequests: string[] = []
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/auth/csrf") csrfRequests.push(request.url())
  })
  // The first POST fetches a token; the second reuses it.
  await page.evaluate(() => window.settle(window.auth.signIn("credentials", { username: "csrf", password: "nope" })))
  await page.evaluate(() => window.settle(window.auth.signIn("credentials", { username: "csrf", password: "nope" })))
  expect(csrfRequests).toHaveLength(1)
  // The cookie the token is bound to is gone (expired, cleared): the server refuses the cached token.
  await page.context().clearCookies({ name: "authjs.csrf-token" })
  const result = await signInWithPassword(page, "csrf")
  expect(result.value?.status).toBe("authenticated")
  expect(csrfRequests).toHaveLength(2)
})
