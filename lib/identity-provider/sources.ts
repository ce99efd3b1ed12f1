/**
 * The pages `oidc-provider` shows itself (its "sources"), drawn as Gatehouse's pages in the
 * request's language and theme (page-render.ts): the device flow's code entry, confirmation and
 * end, the logout question and its end, and the errors of the protocol shown to a person (an
 * unknown client, a wrong redirect URI). The forms `oidc-provider` makes carry its own token
 * (`xsrf`) and address: they are read from its form and drawn again without its inline script.
 */
import type { IncomingMessage } from "node:http"
import type { ResponseInternal } from "../types.js"
import { contextOf } from "./request-state.js"
import { deviceConfirmPage, deviceDonePage, deviceInputPage, loggedOutPage, logoutPage, providerErrorPage } from "./page-render.js"
import type { ClientView } from "./page-models.js"

/** What these functions read and set of Koa's context. */
interface KoaLike {
  req: IncomingMessage
  status: number
  body: unknown
  set(name: string, value: string): void
  oidc?: { client?: { clientId: string; clientName?: string; clientUri?: string } | undefined }
}

function write(koa: KoaLike, response: ResponseInternal): void {
  koa.status = response.status ?? 200
  for (const [name, value] of Object.entries(response.headers ?? {})) koa.set(name, value)
  koa.body = response.body
}

function clientView(koa: KoaLike): ClientView | null {
  const client = koa.oidc?.client
  if (!client) return null
  return { name: client.clientName || client.clientId, ...(client.clientUri && { uri: client.clientUri }) }
}

/** The address and token of a form `oidc-provider` made (`<form ... action="..."><input type="hidden" name="xsrf" value="..."/>`). */
export function formParts(form: string): { action: string; xsrf: string } {
  const action = /\baction="([^"]*)"/.exec(form)?.[1] ?? ""
  const xsrf = /name="xsrf" value="([^"]*)"/.exec(form)?.[1] ?? ""
  // Its values are HTML-escaped in the form; the page escapes them again when drawing.
  const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
  return { action: unescape(action), xsrf: unescape(xsrf) }
}

function need(koa: KoaLike) {
  const ctx = contextOf(koa.req)
  if (!ctx) throw new Error("The identity provider's page was asked for outside Gatehouse's router")
  return ctx
}

export async function deviceInputSource(koa: KoaLike, form: string, _out: unknown, error?: { name?: string; userCode?: string }): Promise<void> {
  const ctx = need(koa)
  // The person pressed Cancel on the confirmation (oidc-provider's AbortedError): the device is refused, the person sees the end page.
  if (error?.name === "AbortedError") return write(koa, deviceDonePage(ctx, { client: clientView(koa), aborted: true }))
  const { action, xsrf } = formParts(form)
  const reason = !error ? undefined : error.name === "NoCodeError" ? "missing" : error.name === "ExpiredError" ? "expired" : "invalid"
  write(koa, deviceInputPage(ctx, { action, xsrf, ...(error?.userCode && { userCode: error.userCode }), ...(reason && { error: reason }), digits: false }, error ? 400 : 200))
}

export async function deviceConfirmSource(koa: KoaLike, form: string, client: { clientId: string; clientName?: string; clientUri?: string }, deviceInfo: { ip?: string; ua?: string } | undefined, userCode: string): Promise<void> {
  const ctx = need(koa)
  const { action, xsrf } = formParts(form)
  const view: ClientView = { name: client.clientName || client.clientId, ...(client.clientUri && { uri: client.clientUri }) }
  write(koa, deviceConfirmPage(ctx, { action, xsrf, userCode, client: view, device: { ...(deviceInfo?.ip && { ip: deviceInfo.ip }), ...(deviceInfo?.ua && { userAgent: deviceInfo.ua }) } }))
}

export async function deviceDoneSource(koa: KoaLike): Promise<void> {
  write(koa, deviceDonePage(need(koa), { client: clientView(koa), aborted: false }))
}

export async function logoutSource(koa: KoaLike, form: string): Promise<void> {
  const { action, xsrf } = formParts(form)
  write(koa, logoutPage(need(koa), { action, xsrf, client: clientView(koa) }))
}

export async function loggedOutSource(koa: KoaLike): Promise<void> {
  write(koa, loggedOutPage(need(koa), { client: clientView(koa) }))
}

/** An error of the protocol shown to a person (the client cannot be trusted with it: no redirect). */
export async function renderProviderError(koa: KoaLike, out: { error?: string; error_description?: string }, _error: unknown): Promise<void> {
  const ctx = contextOf(koa.req)
  const status = koa.status >= 400 ? koa.status : 400
  if (!ctx) {
    koa.status = status
    koa.set("Content-Type", "text/plain; charset=utf-8")
    koa.body = `${out.error ?? "error"}: ${out.error_description ?? ""}`
    return
  }
  write(koa, providerErrorPage(ctx, { error: out.error ?? "server_error", ...(out.error_description && { description: out.error_description }) }, status))
}
