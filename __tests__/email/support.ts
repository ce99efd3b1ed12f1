/**
 * Harness for the email magic-link suites (not a test file): a Gatehouse app listening on a
 * loopback port (so the link in the mail keeps one origin), a real SMTP sink on 127.0.0.1, the
 * memory adapter unless another is given, and helpers that act as the user: ask for a link,
 * read it from the received mail, follow it.
 */
import { afterEach, expect, jest } from "@jest/globals"
import { parse as parseHtml } from "parse5"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import type { TransactionalAdapter } from "../../lib/core/adapter.js"
import Nodemailer, { type NodemailerOptions } from "../../lib/providers/nodemailer.js"
import type { EmailProviderConfig } from "../../lib/providers/types.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET, csrfToken, makeApp, request, serve, setCookies, testConfig, type Agent } from "../helpers/app.js"
import { linkIn, startSmtp, type ReceivedMail, type SinkOptions, type SmtpSink } from "../helpers/smtp.js"

export { SECRET, csrfToken, linkIn, request, setCookies, type Agent, type ReceivedMail }
export const SESSION_COOKIE = "authjs.session-token"
export const CSRF_COOKIE = "authjs.csrf-token"
export const ALICE = "alice@example.com"

type ResponseLike = { status: number; headers: Record<string, unknown>; text?: string }

export interface SiteOptions {
  /** Default: a fresh MemoryAdapter. `null`: no adapter. */
  adapter?: TransactionalAdapter | null
  /** Options for Nodemailer (merged over `{ server: <sink url> }`). */
  provider?: NodemailerOptions
  /** Replaces the provider list entirely (gets the sink). */
  providers?: (smtp: SmtpSink) => AuthConfig["providers"]
  /** More configuration (callbacks, events, session, pages, theme...). */
  config?: Partial<AuthConfig>
  smtp?: SinkOptions
  /** Express's `trust proxy` setting (forwarded headers count only from a trusted hop). */
  trustProxy?: unknown
}

export interface Site {
  /** `http://127.0.0.1:<port>` */
  url: string
  smtp: SmtpSink
  adapter: TransactionalAdapter | undefined
  /** The memory adapter (throws when another adapter is in use). */
  memory: MemoryAdapterInstance
  config: AuthConfig
  /** Everything Gatehouse passed to logger.error. */
  errors: jest.Mock<(error: Error) => void>
  agent(): Agent
  close(): Promise<void>
}

const open: Site[] = []

afterEach(async () => {
  jest.restoreAllMocks()
  await Promise.all(open.splice(0).map((site) => site.close()))
})

/** Starts the SMTP sink and the app; both are closed after the test. */
export async function startSite(options: SiteOptions = {}): Promise<Site> {
  const smtp = await startSmtp(options.smtp)
  const adapter = options.adapter === undefined ? MemoryAdapter() : (options.adapter ?? undefined)
  const errors = jest.fn<(error: Error) => void>()
  const providers = options.providers ? options.providers(smtp) : [Nodemailer({ server: smtp.url, ...options.provider })]
  const config = testConfig({ providers, adapter, logger: { error: errors }, ...options.config })
  let server: Awaited<ReturnType<typeof serve>>
  try {
    const app = makeApp(config)
    if (options.trustProxy !== undefined) app.set("trust proxy", options.trustProxy)
    server = await serve(app)
  } catch (error) {
    await smtp.close()
    throw error
  }
  const site: Site = {
    url: server.url,
    smtp,
    adapter,
    get memory() {
      if (!adapter || !("store" in adapter)) throw new Error("not the memory adapter")
      return adapter as MemoryAdapterInstance
    },
    config,
    errors,
    agent: () => request.agent(server.url),
    close: async () => {
      server.server.closeAllConnections()
      await Promise.all([server.close(), smtp.close()])
    },
  }
  open.push(site)
  return site
}

export interface AskOptions {
  callbackUrl?: string
  provider?: string
  headers?: Record<string, string>
}

/** POST /auth/signin/<provider> with a fresh CSRF token, as the built-in form does. */
export async function askForLink(agent: Agent, email: string, options: AskOptions = {}) {
  const token = await csrfToken(agent)
  const body: Record<string, string> = { csrfToken: token, email }
  if (options.callbackUrl !== undefined) body.callbackUrl = options.callbackUrl
  return agent
    .post(`/auth/signin/${options.provider ?? "nodemailer"}`)
    .set(options.headers ?? {})
    .type("form")
    .send(body)
}

/** Asks for a link and returns the mail that arrived for it (the sink must get exactly one more). */
export async function mailFor(site: Site, agent: Agent, email: string, options: AskOptions = {}): Promise<{ mail: ReceivedMail; link: URL }> {
  const before = site.smtp.messages.length
  const response = await askForLink(agent, email, options)
  expect(response.status).toBe(302)
  expect(new URL(String(response.headers.location)).pathname).toBe("/auth/verify-request")
  const messages = await site.smtp.waitFor(before + 1)
  expect(messages).toHaveLength(before + 1)
  const mail = messages[before]!
  return { mail, link: linkIn(mail) }
}

/** Opens a link (its path and query) with a GET, as a scanner or a browser does, without following redirects. */
export function openLink(agent: Agent, link: URL | string, headers: Record<string, string> = {}) {
  const url = typeof link === "string" ? new URL(link) : link
  return agent.get(`${url.pathname}${url.search}`).set(headers).redirects(0)
}

/** The form of a page (the link's confirm page, the verify-request page): its path and its fields. */
export function formIn(html: string): { path: string; fields: Record<string, string> } | undefined {
  const elements = elementsOf(html)
  const form = elements.find((element) => element.tagName === "form" && element.attrs.method === "post")
  if (!form) return undefined
  const fields: Record<string, string> = {}
  for (const input of elements) if (input.tagName === "input" && input.attrs.type === "hidden" && input.attrs.name) fields[input.attrs.name] = input.attrs.value ?? ""
  return { path: new URL(form.attrs.action!).pathname, fields }
}

/**
 * Follows a link as a person does (issue #19: scanner-safe links): opens it, and on the confirm
 * page presses the button (POSTs its form). Answers the POST, or the GET when it was no page.
 */
export async function follow(agent: Agent, link: URL | string, headers: Record<string, string> = {}) {
  const page = await openLink(agent, link, headers)
  const form = page.status === 200 ? formIn(page.text ?? "") : undefined
  if (!form) return page
  return agent.post(form.path).set(headers).type("form").send(form.fields).redirects(0)
}

/** Asks for a link, follows it, and returns the callback's response. */
export async function signInByEmail(site: Site, agent: Agent, email: string, options: AskOptions = {}) {
  const { link } = await mailFor(site, agent, email, options)
  return follow(agent, link)
}

/** The session as GET /auth/session reports it for the agent. */
export async function sessionOf(agent: Agent): Promise<{ user?: { email?: string | null; name?: string | null } } | null> {
  const response = await agent.get("/auth/session").expect(200)
  return response.body as { user?: { email?: string | null } } | null
}

/** The Location of a redirect, parsed (against the site's URL when relative). */
export function location(response: ResponseLike, base = "http://127.0.0.1"): URL {
  expect(response.status).toBe(302)
  return new URL(String(response.headers.location), base)
}

/** Asserts a redirect to `/auth/<page>?error=<error>` and returns its URL. */
export function expectError(response: ResponseLike, page: "signin" | "error" | "verify-request", error: string): URL {
  const url = location(response)
  expect(url.pathname).toBe(`/auth/${page}`)
  expect(url.searchParams.get("error")).toBe(error)
  return url
}

/** The session cookie the response sets (non-empty), if any. */
export function sessionCookie(response: ResponseLike): string | undefined {
  const found = setCookies(response).find((cookie) => cookie.name === SESSION_COOKIE && cookie.value !== "")
  return found?.value
}

/** A custom `sendVerificationRequest` (a jest.fn) that sends nothing and records what it was given. */
export function recordingSender() {
  const calls: Array<Parameters<NonNullable<EmailProviderConfig["sendVerificationRequest"]>>[0]> = []
  const send = jest.fn(async (params: (typeof calls)[number]) => {
    calls.push(params)
  })
  return { calls, send }
}

/** `key=value; ...` for a Cookie header. */
export function cookieHeader(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ")
}

/** Saves environment variables before a test and restores them after. */
export function withEnv(values: Record<string, string | undefined>): () => void {
  const saved: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(values)) {
    saved[name] = process.env[name]
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

/** Puts a cookie in the agent's jar for the loopback site, as if the browser already held it. */
export function plant(agent: Agent, name: string, value: string): void {
  const jar = (agent as unknown as { jar: { setCookies(cookies: string[], domain: string, path: string): void } }).jar
  jar.setCookies([`${name}=${value}; Path=/`], "127.0.0.1", "/")
}

/** Every string of a logged error a log line could show: messages, stacks, the cause's fields. */
export function loggedText(error: Error): string {
  const cause = (error as { cause?: { err?: unknown } }).cause
  const err = cause?.err as Error | undefined
  const replacer = (_key: string, value: unknown) => (value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value)
  return [error.message, error.stack, JSON.stringify(cause, replacer), err?.message, err?.stack].join("\n")
}

export interface HtmlElement {
  tagName: string
  attrs: Record<string, string>
}

/** Every element of an HTML document, as a browser's parser (parse5) reads it. */
export function elementsOf(html: string): HtmlElement[] {
  type Node = { tagName?: string; attrs?: Array<{ name: string; value: string }>; childNodes?: Node[]; content?: Node }
  const out: HtmlElement[] = []
  const visit = (node: Node) => {
    if (node.tagName) out.push({ tagName: node.tagName, attrs: Object.fromEntries((node.attrs ?? []).map((a) => [a.name, a.value])) })
    for (const child of node.childNodes ?? []) visit(child)
    if (node.content) visit(node.content)
  }
  visit(parseHtml(html) as unknown as Node)
  return out
}

/** The href of every link in an HTML document. */
export function hrefsIn(html: string): string[] {
  return elementsOf(html)
    .filter((element) => element.attrs.href !== undefined)
    .map((element) => element.attrs.href!)
}

/** The one-time code in a mail's plain-text part (`<label>: 123 456`), without its spaces. */
export function codeIn(received: ReceivedMail): string {
  const match = /: ([0-9A-Z]{3,4}(?: [0-9A-Z]{3,4})*)$/m.exec(received.mail.text ?? "")
  if (!match) throw new Error("no code in the mail")
  return match[1]!.replaceAll(" ", "")
}

/**
 * Types `code` as a person does: opens the verify-request page in this browser, fills the code
 * field of its form and submits it. Answers the POST (redirects not followed).
 */
export async function typeCode(agent: Agent, code: string, headers: Record<string, string> = {}) {
  const page = await agent.get("/auth/verify-request?provider=nodemailer&type=email").set(headers).expect(200)
  const form = formIn(page.text)
  if (!form) throw new Error("the verify-request page has no code form")
  return agent.post(form.path).set(headers).type("form").send({ ...form.fields, code }).redirects(0)
}

/** Posts a code straight to the callback, with this browser's CSRF token (for browsers whose page has no form). */
export async function postCode(agent: Agent, code: string, provider = "nodemailer") {
  const token = await csrfToken(agent)
  return agent.post(`/auth/callback/${provider}`).type("form").send({ csrfToken: token, code }).redirects(0)
}
