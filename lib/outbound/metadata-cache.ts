/**
 * Discovery documents and JWKS, shared by every provider record and sign-in that reads the same
 * URL (so "per issuer", however many configurations or lazy configs name it):
 *
 * - one request in flight per URL: 200 sign-ins waiting on a slow issuer make one request;
 * - at most one request per URL per minute: inside that minute the copy in hand is served, so an
 *   ID token with a forged `kid` (which makes openid-client ask for the keys again) cannot make us
 *   hammer the issuer;
 * - stale-while-revalidate: a copy past its minute (and less than a day old) is served at once
 *   while one request refreshes it in the background, so a slow or hanging issuer never holds a
 *   sign-in up; when that request fails (network error, timeout, 5xx) the copy stays;
 * - a reader asking again for a URL it was given less than five minutes ago is asking for keys it
 *   lacks (openid-client keeps a JWKS five minutes and asks again sooner only for an unknown
 *   `kid`; see REASK_MS): it waits for the network (one request in flight, at most one a minute,
 *   bounded by the provider's timeout, the copy served if that request fails);
 * - bounded: at most 100 URLs, the least recently refreshed dropped first.
 */

/** The shortest time between two requests for one URL. */
export const MIN_REFETCH_MS = 60_000
/** How long a good copy may stand in for an issuer that is down. */
export const MAX_STALE_MS = 24 * 60 * 60 * 1000
export const MAX_ENTRIES = 100
/**
 * A reader that asks again for a URL within this time of being given it wants a newer copy (a
 * key it lacks), not the one in hand. openid-client (oauth4webapi) keeps a JWKS for five minutes
 * and asks sooner only when an ID token names a `kid` it does not have.
 */
export const REASK_MS = 5 * 60_000

interface Copy {
  status: number
  headers: [string, string][]
  body: Uint8Array
  fetchedAt: number
}

const copies = new Map<string, Copy & { attemptedAt: number }>()
const inFlight = new Map<string, Promise<Copy | Response>>()
/** Per reader (a provider's fetch), when it was last given each URL. */
const given = new WeakMap<object, Map<string, number>>()

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

function start(key: string, load: () => Promise<Response>, log: (message: string) => void): Promise<Copy | Response> {
  const pending = refresh(key, load, log).finally(() => inFlight.delete(key))
  inFlight.set(key, pending)
  return pending
}

function note(reader: object | undefined, key: string): void {
  if (!reader) return
  let times = given.get(reader)
  if (!times) given.set(reader, (times = new Map()))
  times.delete(key)
  times.set(key, Date.now())
  if (times.size > MAX_ENTRIES) times.delete(times.keys().next().value as string)
}

/**
 * The answer to a public GET of `key` (a URL), from the copy in hand or from `load()`. `reader`
 * (the provider's fetch) tells a first read, which a stale copy answers at once, from a read
 * again soon after, which waits for the network.
 */
export async function cachedGet(key: string, load: () => Promise<Response>, log: (message: string) => void, reader?: object): Promise<Response> {
  const now = Date.now()
  const held = copies.get(key)
  const copy = held && now - held.fetchedAt < MAX_STALE_MS ? held : undefined
  const due = !held || now - held.attemptedAt >= MIN_REFETCH_MS
  const last = reader ? given.get(reader)?.get(key) : undefined
  const reasked = last !== undefined && now - last < REASK_MS
  let pending = inFlight.get(key)
  if (copy && !reasked) {
    if (due && !pending) {
      start(key, load, log).catch((error: Error) => log(`${key} could not be refreshed in the background (${error.message})`))
    }
    note(reader, key)
    return replay(copy)
  }
  if (!pending) {
    if (copy && !due) {
      note(reader, key)
      return replay(copy)
    }
    pending = start(key, load, log)
  }
  const result = await pending
  note(reader, key)
  return result instanceof Response ? result.clone() : replay(result)
}
