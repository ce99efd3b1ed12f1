/**
 * The limits on a fetch the app supplied (a provider's `[customFetch]`): the total timeout through
 * the request's signal, and the body cap by reading the stream and cancelling it at the cap. The
 * connect timeout and the connect-time address check need Gatehouse's own transport
 * (transport.ts); an app that brings its own fetch keeps them in its hands.
 */
import { ProviderResponseTooLarge, ProviderTimeout } from "../errors.js"
import type { OutboundLimits } from "./options.js"

async function capped(response: Response, limits: OutboundLimits, what: string): Promise<Buffer> {
  const tooLarge = () => new ProviderResponseTooLarge(`${what}: the answer is over ${limits.maxResponseSize} bytes; reading stopped`)
  if (Number(response.headers.get("content-length")) > limits.maxResponseSize) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge()
  }
  if (!response.body) return Buffer.alloc(0)
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limits.maxResponseSize) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

export async function callWith(base: typeof fetch, url: URL, init: RequestInit, limits: OutboundLimits): Promise<Response> {
  const what = `${(init.method ?? "GET").toUpperCase()} ${url.host}`
  const timeout = AbortSignal.timeout(limits.timeout)
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout
  try {
    const response = await base(url.href, { ...init, redirect: "manual", signal })
    const body = await capped(response, limits, what)
    const empty = response.status === 204 || response.status === 304
    return new Response(empty ? null : (body as unknown as BodyInit), { status: response.status, statusText: response.statusText, headers: response.headers })
  } catch (error) {
    if (timeout.aborted) throw new ProviderTimeout(`${what}: no complete answer within ${limits.timeout} ms`, { cause: { err: error } })
    throw error
  }
}
