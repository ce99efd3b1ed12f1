/**
 * What protocol.test.ts and hostile-input.test.ts share (not a test file): a person's browser
 * walked through an authorization request (signing in when asked, consent when shown), the
 * authorization code read off the redirect to the client, and the provider's endpoints called as
 * plain HTTP (form bodies, Basic client authentication), their JSON and status kept as they are.
 */
import * as client from "openid-client"
import { CLIENT_SECRET, REDIRECT, formOf, signInBrowser, type Browser, type Page, type ProviderApp } from "./support.js"

export interface Answer {
  status: number
  headers: Headers
  body: Record<string, unknown>
  text: string
}

/** A JSON answer (or its text when not JSON). */
async function answer(response: Response): Promise<Answer> {
  const text = await response.text()
  let body: Record<string, unknown>
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    body = {}
  }
  return { status: response.status, headers: response.headers, body, text }
}

export function basic(clientId: string, secret = CLIENT_SECRET): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`
}

/** POSTs a form to the provider's `path` (`/token`, `/device/auth`...), with Basic auth when given. */
export async function post(t: ProviderApp, path: string, form: Record<string, string>, authorization?: string): Promise<Answer> {
  const response = await fetch(`${t.issuer}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...(authorization && { authorization }) },
    body: new URLSearchParams(form).toString(),
  })
  return answer(response)
}

/** GET with a bearer token (userinfo, the app's API). */
export async function bearerGet(url: string, token: string): Promise<Answer> {
  return answer(await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } }))
}

/** openid-client's view of the provider, as the confidential `web` client or the public `spa`. */
export function relyingParty(t: ProviderApp, clientId: "web" | "spa" | string, secret?: string): Promise<client.Configuration> {
  const options = { execute: [client.allowInsecureRequests] }
  return secret === undefined
    ? client.discovery(new URL(t.issuer), clientId, { token_endpoint_auth_method: "none" }, client.None(), options)
    : client.discovery(new URL(t.issuer), clientId, secret, undefined, options)
}

export function authorizationUrl(t: ProviderApp, params: Record<string, string>): string {
  return `${t.issuer}/auth?${new URLSearchParams({ response_type: "code", redirect_uri: REDIRECT, state: client.randomState(), ...params })}`
}

/** Where an authorization request ends for a browser: the consent page, the client's redirect URI, or another page. */
export interface Authorization {
  page: Page
  /** The browser had to sign in (it was not, or the app's session ended). */
  signedIn: boolean
  consent: boolean
  /** The redirect to the client, when it came to that. */
  redirect?: URL
}

function isSignInPage(page: Page): boolean {
  return page.status === 200 && /oidc-interaction/.test(new URL(page.url).searchParams.get("callbackUrl") ?? "")
}

function ended(page: Page, signedIn: boolean): Authorization {
  const consent = page.status === 200 && /id="oidc-consent-form"/.test(page.body)
  const redirect = page.location?.startsWith(REDIRECT) ? new URL(page.location) : undefined
  return { page, signedIn, consent, ...(redirect && { redirect }) }
}

/** The browser opens `url` (an authorization request), signing in as `username` when the sign-in page comes. */
export async function authorize(t: ProviderApp, browser: Browser, url: string, username: string): Promise<Authorization> {
  let page = await browser.follow(url, t.origin)
  if (!isSignInPage(page)) return ended(page, false)
  await signInBrowser(browser, t.origin, username)
  page = await browser.follow(new URL(page.url).searchParams.get("callbackUrl")!, t.origin)
  return ended(page, true)
}

/** Presses Allow or Deny on the consent page: where the browser ends. */
export async function decide(t: ProviderApp, browser: Browser, page: Page, decision: "allow" | "deny"): Promise<Authorization> {
  const form = formOf(page.body, { action: /oidc-interaction/, button: { name: "decision", value: decision } })
  return ended(await browser.follow(new URL(form.action, page.url).href, t.origin, { form: form.fields }), false)
}

/** Authorization through to the code: signs in and allows when asked. */
export async function codeFor(t: ProviderApp, browser: Browser, url: string, username: string): Promise<{ code: string; redirect: URL; consentShown: boolean }> {
  let done = await authorize(t, browser, url, username)
  const consentShown = done.consent
  if (done.consent) done = await decide(t, browser, done.page, "allow")
  const code = done.redirect?.searchParams.get("code")
  if (!code) throw new Error(`no code: ${done.page.status} ${done.page.location ?? ""} ${done.page.body.slice(0, 500)}`)
  return { code, redirect: done.redirect!, consentShown }
}

/** The payload of a JWT (unchecked). */
export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>
}
