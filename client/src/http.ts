/**
 * Requests to the router: JSON reads, and POSTs that carry the CSRF token (fetched once from
 * `<base>/csrf`, fetched again and the POST retried once when the server refuses it as
 * `MissingCSRF`, e.g. after the cookie expired or was cleared). Every request asks for JSON and
 * for redirects as JSON (`X-Auth-Return-Redirect: 1`), so nothing navigates.
 */
import { AuthClientError, errorFromBody } from "./errors.js"

export interface Transport {
  /** The base URL without a trailing slash ("/auth" or "https://id.example.com/auth"). */
  readonly base: string
  readonly fetch: typeof fetch
  readonly credentials: RequestCredentials
}

const HEADERS = { Accept: "application/json", "X-Auth-Return-Redirect": "1" }

export function createTransport(basePath: string, fetcher: typeof fetch | undefined): Transport {
  const base = basePath.replace(/\/+$/, "")
  const absolute = /^[a-z][a-z\d+.-]*:/i.test(base)
  // A bound default: some browsers refuse `fetch` called on another object than window.
  const bound = fetcher ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init))
  return { base, fetch: bound, credentials: absolute ? "include" : "same-origin" }
}

async function send(transport: Transport, path: string, init: RequestInit): Promise<{ response: Response; body: unknown }> {
  let response: Response
  try {
    response = await transport.fetch(`${transport.base}/${path}`, { ...init, credentials: transport.credentials, cache: "no-store" })
  } catch (cause) {
    throw new AuthClientError("NetworkError", `No answer from ${transport.base}/${path}`, 0, undefined, { cause })
  }
  const text = await response.text()
  let body: unknown = null
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      throw new AuthClientError("InvalidResponse", `${path} did not answer JSON (status ${response.status})`, response.status)
    }
  }
  return { response, body }
}

function checked(path: string, response: Response, body: unknown): unknown {
  const error = errorFromBody(body, response.status)
  if (error) throw error
  if (!response.ok) throw new AuthClientError("InvalidResponse", `${path} answered ${response.status}`, response.status)
  return body
}

/** GET `<base>/<path>`: the JSON answer, or the AuthClientError it carries. */
export async function getJson(transport: Transport, path: string): Promise<unknown> {
  const { response, body } = await send(transport, path, { method: "GET", headers: HEADERS })
  return checked(path, response, body)
}

/** The CSRF token of this browser, fetched once and shared by concurrent POSTs. */
export class CsrfToken {
  #token: Promise<string> | undefined
  constructor(private readonly transport: Transport) {}

  get(): Promise<string> {
    this.#token ??= getJson(this.transport, "csrf").then((body) => {
      const token = (body as { csrfToken?: unknown } | null)?.csrfToken
      if (typeof token !== "string") throw new AuthClientError("InvalidResponse", "csrf answered no csrfToken", 200)
      return token
    })
    this.#token.catch(() => (this.#token = undefined))
    return this.#token
  }

  forget(): void {
    this.#token = undefined
  }
}

export type Fields = Record<string, unknown>

function encode(fields: Fields, asJson: boolean): { body: string; type: string } {
  if (asJson) return { body: JSON.stringify(fields), type: "application/json" }
  const form = new URLSearchParams()
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue
    form.set(name, typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value))
  }
  return { body: form.toString(), type: "application/x-www-form-urlencoded" }
}

/** POST `<base>/<path>` with the CSRF token: the JSON answer (`{ url }` for a redirect), or the AuthClientError it carries. */
export async function post(transport: Transport, csrf: CsrfToken, path: string, fields: Fields, asJson = false): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const { body, type } = encode({ ...fields, csrfToken: await csrf.get() }, asJson)
    const answer = await send(transport, path, { method: "POST", headers: { ...HEADERS, "Content-Type": type }, body })
    const error = errorFromBody(answer.body, answer.response.status)
    if (error?.type === "MissingCSRF" && attempt === 0) {
      csrf.forget()
      continue
    }
    return checked(path, answer.response, answer.body)
  }
}

/** The `url` of a redirect answered as JSON. */
export function redirectUrl(body: unknown, path: string): string {
  const url = (body as { url?: unknown } | null)?.url
  if (typeof url !== "string") throw new AuthClientError("InvalidResponse", `${path} answered no url`, 200)
  return url
}
