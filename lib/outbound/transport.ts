/**
 * One call to a provider on node:http(s), with the limits fetch() cannot set: a connect timeout,
 * a total timeout that also covers the body, a cap on the body (reading stops and the socket is
 * closed at the cap, never buffering the rest), and a check of the address a host name resolves
 * to at connect time (so a DNS answer cannot swap in an internal address after a check). The
 * answer is a standard `Response` holding the whole (capped) body. Redirects are never followed
 * here: the caller decides (see fetch.ts).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns"
import http from "node:http"
import https from "node:https"
import { ProviderRedirectRefused, ProviderResponseTooLarge, ProviderTimeout } from "../errors.js"
import type { OutboundLimits } from "./options.js"

export interface CallOptions {
  /** Refuse to connect to a resolved address for which this returns true. */
  refuseAddress?: (address: string) => boolean
}

/** Errors of calls that ended before a connection to the provider was open: nothing was sent (see `notSent`). */
const unsent = new WeakSet<object>()

/** True when `error` (thrown by `call`) ended the call before it connected, so the request certainly did not reach the provider. */
export function notSent(error: unknown): boolean {
  return typeof error === "object" && error !== null && unsent.has(error)
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

function guardedLookup(refuse: (address: string) => boolean, host: string) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const bad = addresses.find((entry) => refuse(entry.address))
      if (bad) return callback(new ProviderRedirectRefused(`${host} resolves to ${bad.address}, an internal address the provider's configuration does not name`), [])
      if (options.all) return callback(null, addresses)
      const first = addresses[0] as LookupAddress
      callback(null, first.address, first.family)
    })
  }
}

function headerList(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) headers.append(name, item)
  }
  return headers
}

/** `fetch(url, init)` for one hop under `limits`. Errors are the named Provider* errors or network errors. */
export async function call(url: URL, init: RequestInit, limits: OutboundLimits, options: CallOptions = {}): Promise<Response> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`Only http and https URLs are called (got ${url.protocol})`)
  const method = (init.method ?? "GET").toUpperCase()
  const prepared = new Request(url, { method, headers: init.headers, body: init.body })
  const body = method === "GET" || method === "HEAD" ? undefined : Buffer.from(await prepared.arrayBuffer())
  const headers: Record<string, string> = Object.fromEntries(prepared.headers)
  if (body) headers["content-length"] = String(body.length)
  const host = url.host
  return new Promise<Response>((resolve, reject) => {
    const timers: NodeJS.Timeout[] = []
    let connected = false
    const done = (error?: Error) => {
      timers.forEach(clearTimeout)
      if (error && !connected) unsent.add(error)
    }
    const request = (url.protocol === "https:" ? https : http).request(url, {
      method,
      headers,
      ...(options.refuseAddress && { lookup: guardedLookup(options.refuseAddress, host) as never }),
    })
    const fail = (error: Error) => {
      done(error)
      reject(error)
      // Closed without an error of its own: the promise already carries the reason.
      request.destroy()
    }
    timers.push(setTimeout(() => fail(new ProviderTimeout(`${method} ${host}: no complete answer within ${limits.timeout} ms`)), limits.timeout))
    const signal = init.signal
    if (signal) {
      if (signal.aborted) return fail(signal.reason instanceof Error ? signal.reason : new Error("aborted"))
      signal.addEventListener("abort", () => fail(signal.reason instanceof Error ? signal.reason : new Error("aborted")), { once: true })
    }
    request.on("socket", (socket) => {
      // A reused (keep-alive) socket is connected: what is written on it may reach the provider.
      if (!socket.connecting) return void (connected = true)
      const connect = setTimeout(() => fail(new ProviderTimeout(`${host}: not connected within ${limits.connectTimeout} ms`)), limits.connectTimeout)
      timers.push(connect)
      socket.once("connect", () => {
        connected = true
        clearTimeout(connect)
      })
    })
    request.on("error", (error) => {
      done(error)
      reject(error)
    })
    request.on("response", (response) => {
      const tooLarge = () => new ProviderResponseTooLarge(`${method} ${host}: the answer is over ${limits.maxResponseSize} bytes; reading stopped`)
      // Destroying the request ends the response with an error of its own: already reported.
      response.on("error", () => undefined)
      const declared = Number(response.headers["content-length"])
      if (declared > limits.maxResponseSize) return fail(tooLarge())
      const chunks: Buffer[] = []
      let size = 0
      response.on("data", (chunk: Buffer) => {
        size += chunk.length
        if (size > limits.maxResponseSize) return fail(tooLarge())
        chunks.push(chunk)
      })
      response.on("end", () => {
        done()
        const status = response.statusCode ?? 502
        const empty = status === 204 || status === 304 || method === "HEAD"
        try {
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, statusText: response.statusMessage, headers: headerList(response.headers) }))
        } catch (error) {
          reject(error as Error)
        }
      })
    })
    request.end(body)
  })
}
