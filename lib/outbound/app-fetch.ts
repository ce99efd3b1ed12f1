/**
 * The limits on a fetch the app supplied (a provider's `[customFetch]`, also when it is given to
 * a built-in provider that layers its own rewrite over it): Gatehouse cannot see that fetch's
 * sockets, so it enforces only what it can from outside:
 *
 * - enforced: the total timeout (through the request's signal, and by giving up on the answer
 *   even if that fetch ignores the signal), the body cap (reading the stream, cancelled at the
 *   cap), and the redirect rule (`redirect: "manual"`; fetch.ts decides each hop and resolves a
 *   target's host name itself before the call, refusing internal addresses);
 * - not enforced: the connect timeout (within the total one, connecting takes what that fetch
 *   takes), and the address check at connect time (that fetch resolves the name again, so a DNS
 *   answer that changes between the check and the connection is not seen), nor anything about
 *   hosts it picks itself (a proxy, another dispatcher).
 */
import { ProviderResponseTooLarge, ProviderTimeout } from "../errors.js"
import type { OutboundLimits } from "./options.js"

async function capped(response: Response, limits: OutboundLimits, what: string, expired: Promise<never>): Promise<Buffer> {
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
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await Promise.race([reader.read(), expired])
    } catch (error) {
      await reader.cancel().catch(() => undefined)
      throw error
    }
    const { done, value } = chunk
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
  // Given up on at the timeout even if the app's fetch, or its body stream, ignores the signal.
  const expired = new Promise<never>((_resolve, reject) => timeout.addEventListener("abort", () => reject(timeout.reason as Error), { once: true }))
  expired.catch(() => undefined)
  try {
    const response = await Promise.race([base(url.href, { ...init, redirect: "manual", signal }), expired])
    const body = await capped(response, limits, what, expired)
    const empty = response.status === 204 || response.status === 304
    return new Response(empty ? null : (body as unknown as BodyInit), { status: response.status, statusText: response.statusText, headers: response.headers })
  } catch (error) {
    if (timeout.aborted) throw new ProviderTimeout(`${what}: no complete answer within ${limits.timeout} ms`, { cause: { err: error } })
    throw error
  }
}
