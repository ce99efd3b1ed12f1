/**
 * Passkeys on the built-in sign-in page in real Chromium, against examples/basic (Passkey(),
 * users and passkeys in SQLite), with a CDP virtual authenticator (CTAP2 platform authenticator,
 * resident keys, user verification, presence simulated): create a passkey by the sign-in page's
 * create section (the address proved first by the printed magic link, issue #12), sign out, sign in with it through the form (the counter advances), sign in through conditional
 * UI (autofill), a cloned passkey whose counter went backwards is refused, and from
 * http://127.0.0.1 (an IP address cannot be an RP id) the browser refuses to even start.
 *
 * The site is browsed as http://localhost:<port> (a secure context whose host name is the RP id)
 * while the server listens on 127.0.0.1. Every flow is clean: no console error, no CSP violation.
 *
 * What Chromium does with conditional mediation here: with the virtual authenticator and
 * automatic presence simulation, a `mediation: "conditional"` request completes as soon as the
 * page makes it (no autofill entry to pick; focusing the field is not needed); with presence
 * simulation off it stays pending. Tests that need the conditional request pending (the form's
 * own ceremony, a refused sign-in that would otherwise retry by itself) turn presence off first.
 */
import { jest } from "@jest/globals"
import type { Browser, Page } from "playwright-core"
import { SIGNIN_ERRORS } from "../../lib/core/error-messages.js"
import {
  addVirtualAuthenticator,
  holdConditionalRequests,
  exampleAdapter,
  isFaviconNoise,
  launchBrowser,
  localhostOrigin,
  openPage,
  recordCeremonies,
  startExample,
  type Ceremony,
  type CeremonyLog,
  type ExampleAdapter,
  type ExampleServer,
  type VirtualAuthenticator,
  type VirtualCredential,
  type Watched,
} from "./harness.js"
import { continueAs } from "./support/signin.js"

/** What views/assets/webauthn.js shows when the browser's ceremony fails. */
const SCRIPT_FAILURE = "The passkey sign-in did not complete. Please try again."
const SESSION_COOKIE = "authjs.session-token"

let server: ExampleServer
let browser: Browser
let adapter: ExampleAdapter
/** http://localhost:<port>: where passkeys work. */
let origin: string
/** http://127.0.0.1:<port>: the same server, under a name that cannot be an RP id. */
let ipOrigin: string
const open: Watched[] = []

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startExample(), launchBrowser()])
  adapter = await exampleAdapter()
  origin = localhostOrigin(server)
  ipOrigin = server.origin
})

afterEach(async () => {
  jest.restoreAllMocks()
  await Promise.all(open.splice(0).map((watched) => watched.context.close()))
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

interface PasskeyBrowser {
  watched: Watched
  page: Page
  authenticator: VirtualAuthenticator
  ceremonies: CeremonyLog
}

/** A fresh context with its WebAuthn calls recorded and a virtual authenticator of its own. */
async function passkeyBrowser(): Promise<PasskeyBrowser> {
  const watched = await openPage(browser)
  open.push(watched)
  const ceremonies = await recordCeremonies(watched.context)
  const authenticator = await addVirtualAuthenticator(watched.page)
  return { watched, page: watched.page, authenticator, ceremonies }
}

/** Console errors other than the favicon the example app does not serve. */
const realErrors = (watched: Watched) => watched.consoleErrors.filter((entry) => !isFaviconNoise(entry))

function expectClean(watched: Watched) {
  expect(realErrors(watched)).toEqual([])
  expect(watched.violations).toEqual([])
  expect(watched.pageErrors).toEqual([])
  expect(watched.dialogs).toEqual([])
}

// Issue #12: "Sign in with a passkey" asks for no address; a first passkey is created from its own
// section, which proves the address by a magic link first (the basic example prints the link).
const passkeyButton = (page: Page) => page.getByRole("button", { name: "Sign in with a passkey" })
const createButton = (page: Page) => page.getByRole("button", { name: "Create a passkey" })

/** CDP reports ids and user handles in base64; Gatehouse stores credential ids in base64url. */
const base64url = (base64: string) => Buffer.from(base64, "base64").toString("base64url")
const userHandleOf = (credential: VirtualCredential) => Buffer.from(credential.userHandle ?? "", "base64").toString("utf8")

/** Who the context's session belongs to at `site` (GET /api/me with the context's cookies), or null. */
async function signedInAs(p: PasskeyBrowser, site = origin): Promise<string | null> {
  const response = await p.watched.context.request.get(`${site}/api/me`, { maxRedirects: 0 })
  if (response.status() !== 200) return null
  const body = (await response.json()) as { user?: { email?: string } }
  return body.user?.email ?? null
}

async function hasSessionCookie(p: PasskeyBrowser, site = origin) {
  return (await p.watched.context.cookies(site)).some((cookie) => cookie.name === SESSION_COOKIE)
}

/**
 * Opens the sign-in page and waits until its script has asked for the conditional (autofill)
 * request: the page is ready, and its own options request (with the challenge cookie it sets) has
 * been answered before the test starts another ceremony.
 */
async function openSignIn(p: PasskeyBrowser, url = `${origin}/auth/signin`): Promise<Ceremony> {
  const before = p.ceremonies.calls.length
  await p.page.goto(url)
  await p.page.waitForURL((current) => current.pathname === "/auth/signin")
  return p.ceremonies.waitFor((call) => p.ceremonies.calls.indexOf(call) >= before && call.mediation === "conditional", "with mediation conditional on the sign-in page")
}

/**
 * The sign-in page's "create a passkey" path up to the set-up page: the address typed in the
 * create section, the magic link the example prints (read from its console), the link opened
 * (and its confirm button pressed, where links are scanner-safe). The browser is then signed in,
 * with a proven address, on `/auth/passkey-setup/passkey`.
 */
async function proveEmail(p: PasskeyBrowser, email: string, site = origin) {
  const printed = jest.spyOn(console, "log").mockImplementation(() => {})
  try {
    // A conditional request cannot complete yet: the authenticator holds no passkey for this site.
    await openSignIn(p, `${site}/auth/signin`)
    // Identifier-first (issue #26): the address on step one; step two's secondary button carries it.
    await continueAs(p.page, email)
    await p.page.getByRole("button", { name: "Email me a link to create a passkey" }).click()
    await p.page.waitForURL((url) => url.pathname === "/auth/verify-request")
    const mail = printed.mock.calls.map((args) => args.map(String).join(" ")).find((text) => text.includes(`To: ${email}`))
    const link = mail ? /Sign in: (\S+)/.exec(mail)?.[1] : undefined
    if (!link) throw new Error(`no link was printed for ${email}`)
    await p.page.goto(link)
    if (new URL(p.page.url()).pathname.startsWith("/auth/callback/")) await p.page.locator('form[method="post"] button[type="submit"]').first().click()
    await p.page.waitForURL((url) => url.pathname === "/auth/passkey-setup/passkey")
  } finally {
    printed.mockRestore()
  }
}

/** Registers a passkey for a new user by the create path, with presence simulated; returns the user and the credential. */
async function register(p: PasskeyBrowser, email: string) {
  await proveEmail(p, email)
  await createButton(p.page).click()
  await p.page.waitForURL((url) => url.pathname !== "/auth/passkey-setup/passkey")
  const user = await adapter.getUserByEmail(email)
  if (!user) throw new Error(`no user ${email} after the registration; the browser is on ${p.page.url()}`)
  const [credential] = await p.authenticator.credentials()
  const stored = await adapter.getAuthenticator(base64url(credential!.credentialId))
  return { user, credential: credential!, stored: stored! }
}

/** Signs out through the confirmation page's button. */
async function signOut(p: PasskeyBrowser) {
  await p.page.goto(`${origin}/auth/signout`)
  await p.page.getByRole("heading", { name: "Sign out" }).waitFor()
  await p.page.getByRole("button", { name: "Sign out" }).click()
  await p.page.waitForURL((url) => url.pathname !== "/auth/signout")
  expect(await hasSessionCookie(p)).toBe(false)
  expect(await signedInAs(p)).toBeNull()
}

/** Where the page is, as plain values to compare in one assertion. */
function at(page: Page) {
  const url = new URL(page.url())
  return { origin: url.origin, path: url.pathname, search: url.search }
}

/** The WebAuthn calls made since `from` (an index into the log). */
const callsSince = (p: PasskeyBrowser, from: number) => p.ceremonies.calls.slice(from).map(({ method, mediation, outcome }) => ({ method, mediation, outcome }))

describe("passkeys on the built-in sign-in page (http://localhost, virtual authenticator)", () => {
  test("register: the create section proves the address by a link, then the set-up page creates the passkey and the browser is signed in", async () => {
    const p = await passkeyBrowser()
    const { page } = p
    await openSignIn(p)
    // One field on step one (issue #26), which also offers passkeys in autofill; the passkey sign-in
    // button asks for none, and creating one asks for no second address.
    expect(await page.getByLabel("Email or username", { exact: true }).getAttribute("autocomplete")).toBe("username webauthn")
    expect(await page.locator("input:not([type=hidden])").count()).toBe(1)
    expect(await page.locator("form[data-action=authenticate] input:not([type=hidden])").count()).toBe(0)

    await proveEmail(p, "ada@example.com")
    // The address is proven before any passkey exists.
    expect(((await adapter.getUserByEmail("ada@example.com")) as { emailVerified?: unknown } | null)?.emailVerified).toBeInstanceOf(Date)
    expect(await adapter.listAuthenticatorsByUserId((await adapter.getUserByEmail("ada@example.com"))!.id)).toEqual([])
    const start = p.ceremonies.calls.length
    await createButton(page).click()
    await page.waitForURL((url) => url.pathname !== "/auth/passkey-setup/passkey")
    expect(at(page)).toEqual({ origin, path: "/", search: "" })
    await page.getByText("Signed in as ada@example.com.").waitFor()
    expect(await signedInAs(p)).toBe("ada@example.com")
    expect(callsSince(p, start)).toEqual([{ method: "create", mediation: "modal", outcome: "resolved" }])

    // The authenticator made a discoverable credential for this site and this user...
    const credentials = await p.authenticator.credentials()
    expect(credentials).toHaveLength(1)
    const [credential] = credentials as [VirtualCredential]
    const user = await adapter.getUserByEmail("ada@example.com")
    expect(user).toMatchObject({ email: "ada@example.com" })
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: "localhost" })
    expect(userHandleOf(credential)).toBe(user!.id)

    // ...and the site stored it for that user, with the authenticator's counter.
    const stored = await adapter.listAuthenticatorsByUserId(user!.id)
    expect(stored).toEqual([
      expect.objectContaining({
        credentialID: base64url(credential.credentialId),
        providerAccountId: base64url(credential.credentialId),
        userId: user!.id,
        counter: credential.signCount,
        transports: "internal",
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
      }),
    ])
    expect(stored[0]!.credentialPublicKey).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expectClean(p.watched)
  })

  test("sign out, then sign in with the form and no email (a discoverable passkey): the same user, and the counter advances", async () => {
    const p = await passkeyBrowser()
    const { page } = p
    const registered = await register(p, "grace@example.com")
    const counterAtRegistration = registered.stored.counter
    expect(counterAtRegistration).toBe(registered.credential.signCount)
    await signOut(p)

    // The page's conditional request would complete by itself with presence simulated: keep it
    // pending (as a person's browser does until they pick the passkey), then use the form.
    await holdConditionalRequests(page)
    const conditional = await openSignIn(p)
    const start = p.ceremonies.calls.indexOf(conditional)
    await passkeyButton(page).click()
    await page.waitForURL((url) => url.pathname !== "/auth/signin")

    expect(at(page)).toEqual({ origin, path: "/", search: "" })
    await page.getByText("Signed in as grace@example.com.").waitFor()
    expect(await signedInAs(p)).toBe("grace@example.com")
    // The form's ceremony replaced the pending conditional request, and it is the one that signed in.
    expect(callsSince(p, start)).toEqual([
      { method: "get", mediation: "conditional", outcome: "rejected" },
      { method: "get", mediation: "modal", outcome: "resolved" },
    ])
    expect(p.ceremonies.calls[start]!.error).toMatch(/^AbortError/)

    const [credential] = await p.authenticator.credentials()
    expect(credential!.signCount).toBeGreaterThan(registered.credential.signCount)
    const stored = await adapter.getAuthenticator(registered.stored.credentialID)
    expect(stored!.counter).toBeGreaterThan(counterAtRegistration)
    expect(stored!.counter).toBe(credential!.signCount)
    expect(stored!.userId).toBe(registered.user.id)
    expectClean(p.watched)
  })

  test("conditional UI: signed out, /dashboard sends the browser to sign-in, and the passkey signs it in without a click, back on /dashboard", async () => {
    const p = await passkeyBrowser()
    const { page } = p
    const registered = await register(p, "hopper@example.com")
    await signOut(p)
    const start = p.ceremonies.calls.length
    // A person's submit (a click or Enter) fires a submit event; the page script's own
    // form.submit() fires none. Record any.
    const submits: string[] = []
    await page.context().exposeBinding("__gatehouseSubmitted", (_source, url: string) => submits.push(url))
    await page.context().addInitScript(() => {
      document.addEventListener("submit", () => void (window as unknown as { __gatehouseSubmitted(url: string): Promise<void> }).__gatehouseSubmitted(location.href), true)
    })

    // Only until the response starts: the page goes on by itself, maybe before its load event.
    await page.goto(`${origin}/dashboard`, { waitUntil: "commit" })
    // The sign-in page's conditional request completes (the virtual authenticator answers it at
    // once); the browser posts the response and follows the callbackUrl back to the dashboard.
    await page.waitForURL((url) => url.pathname === "/dashboard")
    await page.getByRole("heading", { name: "Dashboard" }).waitFor()
    expect(await signedInAs(p)).toBe("hopper@example.com")

    const calls = p.ceremonies.calls.slice(start)
    expect(calls.map(({ method, mediation, outcome }) => ({ method, mediation, outcome }))).toEqual([{ method: "get", mediation: "conditional", outcome: "resolved" }])
    expect(new URL(calls[0]!.url).pathname).toBe("/auth/signin")
    expect(submits).toEqual([])
    const [credential] = await p.authenticator.credentials()
    const stored = await adapter.getAuthenticator(registered.stored.credentialID)
    expect(stored!.counter).toBeGreaterThan(registered.stored.counter)
    expect(stored!.counter).toBe(credential!.signCount)
    expectClean(p.watched)
  })

  test("signed in, the passkey set-up page adds a passkey on another authenticator to the account, and that one signs in too", async () => {
    const p = await passkeyBrowser()
    const { page } = p
    const first = await register(p, "noether@example.com")
    // Another device: the first authenticator goes away, a new one (with no passkey yet) arrives.
    await p.authenticator.remove()
    const second = await addVirtualAuthenticator(page)

    // Signed in, the set-up page adds a passkey to the account.
    await page.goto(`${origin}/auth/passkey-setup`)
    const start = p.ceremonies.calls.length
    await createButton(page).click()
    await page.waitForURL((url) => url.pathname !== "/auth/passkey-setup")
    expect(callsSince(p, start)).toEqual([{ method: "create", mediation: "modal", outcome: "resolved" }])
    expect(await signedInAs(p)).toBe("noether@example.com")
    const [added] = (await second.credentials()) as [VirtualCredential]
    expect(userHandleOf(added)).toBe(first.user.id)
    const stored = await adapter.listAuthenticatorsByUserId(first.user.id)
    expect(stored.map((authenticator) => authenticator.credentialID).sort()).toEqual([first.stored.credentialID, base64url(added.credentialId)].sort())
    // No second user: the passkey went to the signed-in account.
    expect(await adapter.getUserByEmail("noether@example.com")).toMatchObject({ id: first.user.id })

    await signOut(p)
    await page.goto(`${origin}/auth/signin`, { waitUntil: "commit" })
    await page.waitForURL((url) => url.pathname !== "/auth/signin")
    expect(await signedInAs(p)).toBe("noether@example.com")
    expect((await adapter.getAuthenticator(base64url(added.credentialId)))!.counter).toBe((await second.credentials())[0]!.signCount)
    expectClean(p.watched)
  })

  test("a cloned passkey (the same key on another authenticator, its counter behind) is refused with the WebAuthnVerificationError message", async () => {
    const original = await passkeyBrowser()
    const registered = await register(original, "lovelace@example.com")
    const counter = registered.stored.counter
    expect(counter).toBeGreaterThan(0)

    // The server logs the refusal and its cause (to console.error, as Gatehouse's default logger does).
    const logged = jest.spyOn(console, "error").mockImplementation(() => {})
    const clone = await passkeyBrowser()
    const { page } = clone
    await clone.authenticator.addCredential({ ...registered.credential, signCount: 0 })
    // The refused sign-in lands on the sign-in page again, whose conditional request would retry
    // by itself: presence goes off while the response is on its way to the server.
    const posted: string[] = []
    await page.route(`${origin}/auth/callback/passkey`, async (route) => {
      posted.push(route.request().url())
      await clone.authenticator.setPresence(false)
      await route.continue()
    })
    await page.goto(`${origin}/auth/signin`, { waitUntil: "commit" })
    await page.waitForURL((url) => url.searchParams.get("error") !== null)
    const landed = new URL(page.url())
    expect({ origin: landed.origin, path: landed.pathname, error: landed.searchParams.get("error") }).toEqual({ origin, path: "/auth/signin", error: "WebAuthnVerificationError" })
    expect((await page.getByRole("alert").innerText()).trim()).toBe(SIGNIN_ERRORS.WebAuthnVerificationError)
    expect(posted).toHaveLength(1)
    expect(await signedInAs(clone)).toBeNull()
    expect(await hasSessionCookie(clone)).toBe(false)
    // Refused for its counter, not for anything else about the response.
    const log = logged.mock.calls.map((args) => args.map(String).join(" ")).join("\n")
    expect(log).toContain("WebAuthnVerificationError")
    expect(log).toMatch(/counter/i)
    // Nothing was stored from the clone's answer.
    expect((await adapter.getAuthenticator(registered.stored.credentialID))!.counter).toBe(counter)
    expectClean(clone.watched)
  })
})

describe("the wrong origin: http://127.0.0.1 (an IP address cannot be an RP id)", () => {
  test("signing in with a passkey of the site from http://127.0.0.1: the browser refuses to start, the page says so, nobody is signed in", async () => {
    const p = await passkeyBrowser()
    const { page } = p
    const registered = await register(p, "turing@example.com")
    const posts: string[] = []
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url())
    })

    const conditional = await openSignIn(p, `${ipOrigin}/auth/signin`)
    // Chromium refuses the options' RP id (127.0.0.1) for the autofill request too: it never starts.
    await p.ceremonies.waitFor((call) => call === conditional && call.outcome !== "pending", "conditional on 127.0.0.1 that ended")
    expect(conditional.outcome).toBe("rejected")
    expect(conditional.error).toMatch(/^SecurityError/)
    const start = p.ceremonies.calls.length

    await passkeyButton(page).click()
    await page.getByRole("alert").waitFor()
    expect((await page.getByRole("alert").innerText()).trim()).toBe(SCRIPT_FAILURE)
    expect(at(page)).toEqual({ origin: ipOrigin, path: "/auth/signin", search: "" })
    // After the form's ceremony fails, the page offers passkeys in autofill again (refused here too).
    await p.ceremonies.waitFor((call) => p.ceremonies.calls.indexOf(call) > start && call.mediation === "conditional" && call.outcome !== "pending", "autofill restarted")
    expect(callsSince(p, start)).toEqual([
      { method: "get", mediation: "modal", outcome: "rejected" },
      { method: "get", mediation: "conditional", outcome: "rejected" },
    ])
    expect(p.ceremonies.calls[start]!.error).toMatch(/^SecurityError/)

    // No response reached the server, the authenticator did not sign, nobody is signed in there.
    expect(posts).toEqual([])
    expect((await p.authenticator.credentials())[0]!.signCount).toBe(registered.credential.signCount)
    expect((await adapter.getAuthenticator(registered.stored.credentialID))!.counter).toBe(registered.stored.counter)
    expect(await hasSessionCookie(p, ipOrigin)).toBe(false)
    expect(await signedInAs(p, ipOrigin)).toBeNull()
    expectClean(p.watched)
  })

  test("registering from http://127.0.0.1: the browser refuses to create the passkey, the page says so, no passkey is stored", async () => {
    const p = await passkeyBrowser()
    const { page } = p
    // The address is proven there (a magic link works on any origin); the ceremony cannot start.
    await proveEmail(p, "hamilton@example.com", ipOrigin)
    const posts: string[] = []
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url())
    })
    const start = p.ceremonies.calls.length

    await createButton(page).click()
    await page.getByRole("alert").waitFor()
    expect((await page.getByRole("alert").innerText()).trim()).toBe(SCRIPT_FAILURE)
    expect(at(page).path).toBe("/auth/passkey-setup/passkey")
    // The set-up page offers no autofill: the one ceremony, refused.
    expect(callsSince(p, start)).toEqual([{ method: "create", mediation: "modal", outcome: "rejected" }])
    expect(p.ceremonies.calls[start]!.error).toMatch(/^SecurityError/)

    expect(posts).toEqual([])
    expect(await p.authenticator.credentials()).toEqual([])
    const user = await adapter.getUserByEmail("hamilton@example.com")
    expect(await adapter.listAuthenticatorsByUserId(user!.id)).toEqual([])
    expect(await signedInAs(p, ipOrigin)).toBe("hamilton@example.com")
    expectClean(p.watched)
  })
})
