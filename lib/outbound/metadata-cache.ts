/**
 * Discovery documents and JWKS, shared by every provider record and sign-in that reads the same
 * URL (so "per issuer", however many configurations or lazy configs name it):
 *
 * - one request in flight per URL: 200 sign-ins waiting on a slow issuer make one request;
 * - at most one request per URL per minute: inside that minute the copy in hand is served, so an
 *   ID token with a forged `kid` (which makes openid-client ask for the keys again) cannot make us
 *   hammer the issuer;
 * - stale-while-revalidate: when the issuer is down (network error, timeout, 5xx) the last good
 *   copy keeps being served for up to a day;
 * - bounded: at most 100 URLs, the least recently refreshed dropped first.
 */

/** The shortest time between two requests for one URL. */
export const MIN_REFETCH_MS = 60_000
/** How long a good copy may stand in for an issuer that is down. */
export const MAX_STALE_MS = 24 * 60 * 60 * 1000
export const MAX_ENTRIES = 100

interface Copy {
  status: number
  headers: [string, string][]
  body: Uint8Array
  fetchedAt: number
}

const copies = new Map<string, Copy & { attemptedAt: number }>()
const inFlight = new Map<string, Promise<Copy | Response>>()

function replay(copy: Copy): Response {
  return new Response(copy.body.slice(), { status: copy.status, headers: copy.headers })
}

async function refresh(key: string, load: () => Promise<Response>, log: (message: string) => void): Promise<Copy | Response> {
  const previous = copies.get(key)
  const now = Date.now()
  if (previous) previous.attemptedAt = now
  const usable = previous && now - previous.fetchedAt < MAX_STALE_MS ? previous : undefined
  let response: Response
  try {
    response = await load()
  } catch (error) {
    if (!usable) throw error
    log(`${key} could not be fetched (${(error as Error).message}); serving the copy from ${new Date(usable.fetchedAt).toISOString()}`)
    return usable
  }
  if (response.status >= 500 && usable) {
    log(`${key} answered ${response.status}; serving the copy from ${new Date(usable.fetchedAt).toISOString()}`)
    return usable
  }
  // Only a 200 in JSON is kept; anything else goes to the caller as it is (and the next call asks again).
  if (response.status !== 200 || !/json/i.test(response.headers.get("content-type") ?? "")) return response
  const copy = { status: 200, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()), fetchedAt: now, attemptedAt: now }
  copies.delete(key)
  copies.set(key, copy)
  while (copies.size > MAX_ENTRIES) copies.delete(copies.keys().next().value as string)
  return copy
}

/** The answer to a public GET of `key` (a URL), from the copy in hand or from `load()`. */
export async function cachedGet(key: string, load: () => Promise<Response>, log: (message: string) => void): Promise<Response> {
  let pending = inFlight.get(key)
  if (!pending) {
    const copy = copies.get(key)
    const now = Date.now()
    if (copy && now - copy.attemptedAt < MIN_REFETCH_MS && now - copy.fetchedAt < MAX_STALE_MS) return replay(copy)
    pending = refresh(key, load, log).finally(() => inFlight.delete(key))
    inFlight.set(key, pending)
  }
  const result = await pending
  return result instanceof Response ? result.clone() : replay(result)
}
