/**
 * The browser suite's fixtures: the basic example app on a random loopback port, Chromium (the
 * Debian package) driven by playwright-core, and a watcher that records what a person's browser
 * would complain about on a page: console errors, uncaught errors, dialogs and CSP violations.
 */
import { afterAll, afterEach, beforeAll } from "@jest/globals"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Express } from "express"
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from "playwright-core"

export const CHROMIUM = "/usr/bin/chromium"
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

/** Actions and waits give up well before jest's 60 s test timeout, so failures say what was awaited. */
const ACTION_TIMEOUT = 15_000

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] })
}

export interface ExampleServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  origin: string
  close(): Promise<void>
}

// A specifier in a variable: examples/basic is plain JavaScript without type declarations, so the
// type checker is not asked to resolve it; jest resolves it at run time relative to this file.
const EXAMPLE_MODULE = "../../examples/basic/index.js"

const E2E_SECRET = "e2e-secret-0b5c9a7e3f2d4c1b8a6e9d0f7c3b2a1e"

/** Starts examples/basic (its `app`, as exported) on 127.0.0.1 and a free port. */
export async function startExample(): Promise<ExampleServer> {
  // A fixed secret keeps the run quiet (no dev-secret-generated warning) and deterministic.
  const previousSecret = process.env.AUTH_SECRET
  process.env.AUTH_SECRET ??= E2E_SECRET
  // The example's users and sessions in memory, not in its SQLite file.
  process.env.DATABASE_URL ??= "sqlite::memory:"
  const { app } = (await import(EXAMPLE_MODULE)) as { app: Express }
  const server: Server = app.listen(0, "127.0.0.1")
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve)
    server.once("error", reject)
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => {
          if (previousSecret === undefined) delete process.env.AUTH_SECRET
          else process.env.AUTH_SECRET = previousSecret
          if (error) reject(error)
          else resolve()
        })
      }),
  }
}

export interface ConsoleEntry {
  type: string
  text: string
  /** The resource the message is about (for network errors) or the script location. */
  url: string
}

export interface Violation {
  directive: string
  blockedURI: string
  documentURI: string
  sample: string
}

export interface Watched {
  context: BrowserContext
  page: Page
  /** Console messages of type error (and warnings, kept apart). */
  consoleErrors: ConsoleEntry[]
  consoleWarnings: ConsoleEntry[]
  pageErrors: string[]
  dialogs: string[]
  violations: Violation[]
  /** Resolves with the next CSP violation reported after this call. */
  nextViolation(): Promise<Violation>
  /** Empties every list (e.g. before visiting the next page). */
  reset(): void
}

declare global {
  interface Window {
    __gatehouseReportViolation?: (violation: Violation) => void
  }
}

/**
 * A fresh context (its own cookies) and page, with every complaint recorded. CSP violations are
 * reported by a `securitypolicyviolation` listener installed before any page script runs, through
 * a binding (both are injected by the browser, so the pages' `default-src 'none'` allows them).
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Watched> {
  const context = await browser.newContext(options)
  context.setDefaultTimeout(ACTION_TIMEOUT)
  context.setDefaultNavigationTimeout(ACTION_TIMEOUT)
  const violations: Violation[] = []
  let waiters: Array<(violation: Violation) => void> = []
  await context.exposeBinding("__gatehouseReportViolation", (_source, violation: Violation) => {
    violations.push(violation)
    const current = waiters
    waiters = []
    current.forEach((resolve) => resolve(violation))
  })
  await context.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (event) => {
        window.__gatehouseReportViolation?.({
          directive: event.effectiveDirective || event.violatedDirective,
          blockedURI: event.blockedURI,
          documentURI: event.documentURI,
          sample: event.sample,
        })
      },
      true,
    )
  })
  const page = await context.newPage()
  const watched: Watched = {
    context,
    page,
    consoleErrors: [],
    consoleWarnings: [],
    pageErrors: [],
    dialogs: [],
    violations,
    nextViolation: () => new Promise<Violation>((resolve) => waiters.push(resolve)),
    reset() {
      watched.consoleErrors.length = 0
      watched.consoleWarnings.length = 0
      watched.pageErrors.length = 0
      watched.dialogs.length = 0
      violations.length = 0
    },
  }
  page.on("console", (message) => {
    const entry = { type: message.type(), text: message.text(), url: message.location().url }
    if (message.type() === "error") watched.consoleErrors.push(entry)
    else if (message.type() === "warning") watched.consoleWarnings.push(entry)
  })
  page.on("pageerror", (error) => watched.pageErrors.push(String(error)))
  page.on("dialog", (dialog) => {
    watched.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    void dialog.dismiss()
  })
  return watched
}

/**
 * The example app serves no /favicon.ico, and Chromium asks for one on every origin it shows: its
 * 404 is the app's, not a page's. Everything else logged as an error counts.
 */
export function isFaviconNoise(entry: ConsoleEntry): boolean {
  return entry.url !== "" && new URL(entry.url).pathname === "/favicon.ico"
}

/** Chromium's console line for a document answered with an error status, e.g. 403 or 500. */
export function isStatusLineFor(entry: ConsoleEntry, url: string, status: number): boolean {
  return entry.url === url && entry.text.startsWith(`Failed to load resource: the server responded with a status of ${status} `)
}

/**
 * Signs the context in as demo/demo without the sign-in page: the CSRF token from GET /auth/csrf
 * and a POST to the credentials callback through the context's request API, which shares the
 * context's cookies. For tests whose subject is not the sign-in form itself.
 */
export async function signInWithoutForm(watched: Watched, origin: string, callbackUrl = `${origin}/dashboard`): Promise<void> {
  const api = watched.context.request
  const { csrfToken } = (await (await api.get(`${origin}/auth/csrf`)).json()) as { csrfToken: string }
  const response = await api.post(`${origin}/auth/callback/credentials`, {
    form: { csrfToken, username: "demo", password: "demo", callbackUrl },
    maxRedirects: 0,
  })
  if (response.status() !== 302 || response.headers().location !== callbackUrl) {
    throw new Error(`sign-in without the form failed: ${response.status()} ${response.headers().location ?? ""}`)
  }
}

/**
 * Whether the element `locator` points at takes keyboard focus within `timeout` ms. For autofocus:
 * Chromium applies it on a rendering update, which on a loaded machine can come after the load
 * event that `goto` and `waitForURL` wait for.
 */
export async function focusArrives(locator: Locator, timeout = 5_000): Promise<boolean> {
  const element = await locator.elementHandle()
  if (!element) return false
  return locator
    .page()
    .waitForFunction((target) => target === document.activeElement, element, { timeout })
    .then(
      () => true,
      () => false,
    )
}

/** What `tabTo` sees of the focused element. */
export interface FocusedElement {
  tag: string
  text: string
  name: string | null
  value: string | null
}

/** Presses Tab until the focused element matches (at most 40 presses): keyboard-only journeys. */
export async function tabTo(page: Page, matches: (element: FocusedElement) => boolean): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab")
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null
      return { tag: element?.tagName.toLowerCase() ?? "", text: element?.textContent?.trim() ?? "", name: element?.getAttribute("name") ?? null, value: element?.getAttribute("value") ?? null }
    })
    if (matches(focused)) return
  }
  throw new Error("the element was never focused by Tab")
}

/** A `tabTo` matcher: the input field named `name`. */
export const inputNamed = (name: string) => (element: FocusedElement) => element.tag === "input" && element.name === name

/** Whether the element the locator points at has keyboard focus. */
export async function hasFocus(page: Page, label: string): Promise<boolean> {
  return page.getByLabel(label, { exact: true }).evaluate((element) => element === document.activeElement)
}

// ---------------------------------------------------------------------------------------------
// Passkeys: the example's adapter, its site as http://localhost, and Chromium's virtual
// authenticator (the CDP WebAuthn domain).

/** The example's authenticator records, as its SqlAdapter returns them. */
export interface StoredAuthenticator {
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  credentialPublicKey: string
  transports?: string | null
  credentialDeviceType: string
}

/** The part of examples/basic's `adapter` (a SqlAdapter) the browser tests read the stored state through. */
export interface ExampleAdapter {
  getUser(id: string): Promise<{ id: string; email: string; name?: string | null } | null>
  getUserByEmail(email: string): Promise<{ id: string; email: string; name?: string | null } | null>
  getAuthenticator(credentialID: string): Promise<StoredAuthenticator | null>
  listAuthenticatorsByUserId(userId: string): Promise<StoredAuthenticator[]>
}

/**
 * The adapter of the example `startExample` serves (the same module instance: one import per test
 * file), to read the users and passkeys the browser created.
 */
export async function exampleAdapter(): Promise<ExampleAdapter> {
  const { adapter } = (await import(EXAMPLE_MODULE)) as { adapter: ExampleAdapter }
  return adapter
}

/**
 * The example's site as http://localhost:<port>: the server listens on 127.0.0.1, but WebAuthn
 * needs a host name as RP id (browsers refuse an IP address) and localhost is a secure context.
 */
export function localhostOrigin(server: ExampleServer): string {
  const url = new URL(server.origin)
  url.hostname = "localhost"
  return url.origin
}

/** A credential of a virtual authenticator, as CDP's WebAuthn.getCredentials reports it. */
export interface VirtualCredential {
  credentialId: string
  isResidentCredential: boolean
  rpId?: string
  /** base64 of the user handle (the example's user id). */
  userHandle?: string
  /** base64 of the PKCS#8 private key. */
  privateKey: string
  signCount: number
}

export interface VirtualAuthenticator {
  id: string
  credentials(): Promise<VirtualCredential[]>
  /** Puts a credential (e.g. one copied from another authenticator, private key included) on this one. */
  addCredential(credential: VirtualCredential): Promise<void>
  /** Whether the authenticator answers by itself (a touch and a verified user), or waits. */
  setPresence(enabled: boolean): Promise<void>
  remove(): Promise<void>
}

/**
 * From the next document on, `page`'s conditional (autofill) requests stay pending until the page
 * aborts them, as they do for a person who has not picked a passkey from the autofill list. (Turning
 * the virtual authenticator's presence off and on again cannot do this reliably: turning it on may
 * complete the pending request.)
 */
export async function holdConditionalRequests(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__gatehouseHoldConditional = true
  })
}

/**
 * A platform authenticator (CTAP2, internal transport, resident keys, user verification that
 * succeeds, presence simulated) attached to `page` through CDP's WebAuthn domain. Chromium uses it
 * instead of any real authenticator for every WebAuthn request of that page.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return {
    id: authenticatorId,
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials as VirtualCredential[],
    addCredential: async (credential) => {
      await cdp.send("WebAuthn.addCredential", { authenticatorId, credential })
    },
    setPresence: async (enabled) => {
      await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled })
    },
    remove: async () => {
      await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId })
      await cdp.detach()
    },
  }
}

/** One call of navigator.credentials.create or .get a page made, and how it ended. */
export interface Ceremony {
  method: "create" | "get"
  /** `mediation` of the call ("conditional" for autofill), or "modal" when it had none. */
  mediation: string
  outcome: "pending" | "resolved" | "rejected"
  /** The DOMException's name and message, for a rejected call. */
  error?: string
  /** The document that made the call. */
  url: string
}

export interface CeremonyLog {
  /** Every call, in the order the pages made them (across navigations). */
  calls: Ceremony[]
  /** Resolves with the first call (recorded already or to come) that `matches`; gives up after a while. */
  waitFor(matches: (call: Ceremony) => boolean, what: string): Promise<Ceremony>
}

interface CeremonyEvent {
  key: string
  method: "create" | "get"
  mediation: string
  phase: "called" | "resolved" | "rejected"
  error?: string
  url: string
}

declare global {
  interface Window {
    __gatehouseCeremony?: (event: CeremonyEvent) => void
    /** Set by holdConditionalRequests: conditional requests wait, as for a person who has not picked a passkey. */
    __gatehouseHoldConditional?: boolean
  }
}

/**
 * Records the WebAuthn calls of every page of `context` (which of create/get, conditional or
 * modal, and their outcome) without changing them: the pages' own navigator.credentials methods
 * are wrapped before any page script runs and report through a binding, like the CSP listener.
 */
export async function recordCeremonies(context: BrowserContext): Promise<CeremonyLog> {
  const calls: Ceremony[] = []
  const byKey = new Map<string, Ceremony>()
  let waiters: Array<() => void> = []
  await context.exposeBinding("__gatehouseCeremony", (_source, event: CeremonyEvent) => {
    let call = byKey.get(event.key)
    if (!call) {
      call = { method: event.method, mediation: event.mediation, outcome: "pending", url: event.url }
      byKey.set(event.key, call)
      calls.push(call)
    }
    if (event.phase !== "called") call.outcome = event.phase
    if (event.error !== undefined) call.error = event.error
    const current = waiters
    waiters = []
    current.forEach((wake) => wake())
  })
  await context.addInitScript(() => {
    const container = window.isSecureContext ? navigator.credentials : undefined
    if (!container) return
    // A held conditional request never reaches the authenticator; it ends only when the page aborts it.
    const pendingUntilAborted = (signal?: AbortSignal | null) =>
      new Promise<Credential | null>((_resolve, reject) => {
        const abort = () => reject(signal?.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted.", "AbortError"))
        if (signal?.aborted) abort()
        else signal?.addEventListener("abort", abort, { once: true })
      })
    const documentKey = `${performance.timeOrigin}-${Math.random()}`
    let count = 0
    for (const method of ["create", "get"] as const) {
      const original = container[method] as (options?: CredentialRequestOptions) => Promise<Credential | null>
      container[method] = function (options?: CredentialRequestOptions) {
        const key = `${documentKey}-${++count}`
        const base = { key, method, mediation: options?.mediation ?? "modal", url: location.href }
        window.__gatehouseCeremony?.({ ...base, phase: "called" })
        const held = method === "get" && options?.mediation === "conditional" && window.__gatehouseHoldConditional === true
        const result = held ? pendingUntilAborted(options?.signal) : original.call(container, options)
        result.then(
          () => window.__gatehouseCeremony?.({ ...base, phase: "resolved" }),
          (error: unknown) => window.__gatehouseCeremony?.({ ...base, phase: "rejected", error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
        )
        return result
      }
    }
  })
  return {
    calls,
    waitFor(matches, what) {
      return new Promise<Ceremony>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no WebAuthn call ${what}; calls: ${JSON.stringify(calls)}`)), ACTION_TIMEOUT)
        const check = () => {
          const found = calls.find(matches)
          if (found) {
            clearTimeout(timer)
            resolve(found)
          } else {
            waiters.push(check)
          }
        }
        check()
      })
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Flows that leave the site (an OpenID provider's pages) or read a mail.

/**
 * What the watcher recorded that concerns `origin`'s own pages: console errors about another
 * origin's documents or resources (an OpenID provider's login page, its 401 status line, its
 * favicon) are left out, as is the site's favicon; CSP violations are those of `origin`'s
 * documents. Page errors and dialogs are kept whole (they name no origin).
 */
export function complaintsOn(watched: Watched, origin: string): Pick<Watched, "consoleErrors" | "violations" | "pageErrors" | "dialogs"> {
  const sameOrigin = (url: string) => {
    try {
      return new URL(url).origin === origin
    } catch {
      return false
    }
  }
  return {
    consoleErrors: watched.consoleErrors.filter((entry) => !isFaviconNoise(entry) && (entry.url === "" || sameOrigin(entry.url))),
    violations: watched.violations.filter((violation) => sameOrigin(violation.documentURI)),
    pageErrors: [...watched.pageErrors],
    dialogs: [...watched.dialogs],
  }
}

export interface BrowserSuite {
  /** The app's origin once it listens (`http://<host>:<port>`). */
  readonly origin: string
  /** A fresh context and page with every complaint recorded; closed after the test. */
  newPage(options?: BrowserContextOptions): Promise<Watched>
}

/**
 * The usual life of a browser test file: before all, `app` listens on a free loopback port and
 * Chromium starts; after each test, the pages it opened close; after all, both stop. `host`
 * names the origin (`localhost` where passkeys are used: browsers allow them there, not on
 * 127.0.0.1).
 */
export function browserSuite(app: Express, host: "127.0.0.1" | "localhost" = "127.0.0.1"): BrowserSuite {
  let server: Server | undefined
  let browser: Browser | undefined
  let origin = ""
  const open: Watched[] = []
  beforeAll(async () => {
    const listening = app.listen(0, "127.0.0.1")
    server = listening
    await new Promise<void>((resolve, reject) => listening.once("listening", resolve).once("error", reject))
    origin = `http://${host}:${(listening.address() as AddressInfo).port}`
    browser = await launchBrowser()
  })
  afterEach(async () => {
    await Promise.all(open.splice(0).map((watched) => watched.context.close()))
  })
  afterAll(async () => {
    await browser?.close()
    const stopping = server
    if (!stopping) return
    await new Promise<void>((closed) => {
      stopping.closeAllConnections()
      stopping.close(() => closed())
    })
  })
  return {
    get origin() {
      return origin
    },
    async newPage(options = {}) {
      if (!browser) throw new Error("browserSuite: the browser starts in beforeAll; open pages inside tests")
      const watched = await openPage(browser, options)
      open.push(watched)
      return watched
    },
  }
}
