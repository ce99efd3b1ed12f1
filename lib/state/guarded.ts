/**
 * A shared store (Redis) as Gatehouse uses it: every call bounded by a timeout, and while the
 * store fails, this process's memory stands in for the rate limits (they then hold per process,
 * not across processes) while claims (used passkey challenges) are refused with
 * `StoreUnavailable`, with the failure logged at most once a minute. While it is
 * down, calls do not wait for it: a background probe asks it again every 2 s, and calls go back
 * to the shared store as soon as it answers.
 */
import { AdapterError, InvalidOption, StoreUnavailable } from "../errors.js"
import type { LoggerInstance } from "../types.js"
import { MemoryStore } from "./memory.js"
import { hasSessionMethods, type SessionStateStore, type StateStore } from "./types.js"

const TIMEOUT_MS = 1000
const LOG_EVERY_MS = 60_000
const RETRY_MS = 2000
/** What the probe deletes: a key Gatehouse never writes. */
const PROBE_KEY = "probe:unused"

function bounded<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

export function guardedStore(store: StateStore, logger: LoggerInstance): StateStore {
  if (store instanceof MemoryStore) return store
  const fallback = new MemoryStore()
  let lastLogged = 0
  // Once a call has failed, calls use this process's memory at once instead of each waiting for
  // the timeout (and piling commands up in a client's offline queue); in the background, a probe
  // (deleting a key nothing uses) asks the shared store again at most every RETRY_MS, and the
  // first one it answers puts the shared store back in use.
  let down = false
  let retryAt = 0
  let probing = false
  const failed = (operation: string, error: unknown) => {
    down = true
    const now = Date.now()
    retryAt = now + RETRY_MS
    if (now - lastLogged >= LOG_EVERY_MS) {
      lastLogged = now
      logger.error(new AdapterError(`The shared state store failed (${operation}); this process's memory stands in until it answers again`, { cause: { err: error } }))
    }
  }
  const probe = () => {
    if (probing || Date.now() < retryAt) return
    probing = true
    bounded(Promise.resolve().then(() => store.reset(PROBE_KEY)))
      .then(
        () => {
          down = false
        },
        (error: unknown) => failed("probe", error),
      )
      .finally(() => {
        probing = false
      })
  }
  const attempt = async <T>(operation: string, shared: () => Promise<T>, local: () => Promise<T>): Promise<T> => {
    if (down) {
      probe()
      return local()
    }
    try {
      return await bounded(Promise.resolve().then(shared))
    } catch (error) {
      failed(operation, error)
      return local()
    }
  }
  return {
    hit: (key, window) => attempt("hit", () => store.hit(key, window), () => fallback.hit(key, window)),
    reset: (key) => attempt("reset", () => store.reset(key), () => fallback.reset(key)),
    // A claim is a single-use guarantee across processes (a passkey challenge): this process's
    // memory cannot give it, so while the shared store is unreachable, claims fail closed.
    claim: (key, ttl) => attempt("claim", () => store.claim(key, ttl), () => Promise.reject(new StoreUnavailable("The shared state store is unreachable: a single use (a passkey challenge) cannot be checked across processes, so it is refused until the store answers"))),
    // Shared values (refreshed provider tokens): this process's memory when the store has none or is down.
    putValue: (key, value, ttl) => (store.putValue ? attempt("putValue", () => (store.putValue as NonNullable<StateStore["putValue"]>)(key, value, ttl), () => fallback.putValue(key, value, ttl)) : fallback.putValue(key, value, ttl)),
    getValue: (key) => (store.getValue ? attempt("getValue", () => (store.getValue as NonNullable<StateStore["getValue"]>)(key), () => fallback.getValue(key)) : fallback.getValue(key)),
    ...guardedSessionMethods(store, fallback, attempt, (error) => logger.error(new AdapterError("The shared state store refused the revocation subscription; revocations from other processes arrive within the one-second cache instead", { cause: { err: error } }))),
  }
}

type Attempt = <T>(operation: string, shared: () => Promise<T>, local: () => Promise<T>) => Promise<T>

/**
 * The revocable-session methods, guarded the same way. A store without them (a custom store
 * written before them) gets this process's memory for them, for good.
 */
function guardedSessionMethods(store: StateStore, fallback: MemoryStore, attempt: Attempt, subscribeFailed: (error: unknown) => void): SessionStateStore {
  if (!hasSessionMethods(store)) {
    // Bound, so the methods survive being spread into the guarded store.
    return {
      putSession: (userId, record) => fallback.putSession(userId, record),
      listSessions: (userId) => fallback.listSessions(userId),
      removeSessions: (userId, sids) => fallback.removeSessions(userId, sids),
      revokeSid: (sid, ttl) => fallback.revokeSid(sid, ttl),
      revokeUser: (userId, notBefore, ttl) => fallback.revokeUser(userId, notBefore, ttl),
      revocation: (sid, userId) => fallback.revocation(sid, userId),
      publish: (message) => fallback.publish(message),
      subscribe: (listener) => fallback.subscribe(listener),
    }
  }
  return {
    putSession: (userId, record, ttl) => attempt("putSession", () => store.putSession(userId, record, ttl), () => fallback.putSession(userId, record)),
    listSessions: (userId) => attempt("listSessions", () => store.listSessions(userId), () => fallback.listSessions(userId)),
    removeSessions: (userId, sids) => attempt("removeSessions", () => store.removeSessions(userId, sids), () => fallback.removeSessions(userId, sids)),
    revokeSid: (sid, ttl) => attempt("revokeSid", () => store.revokeSid(sid, ttl), () => fallback.revokeSid(sid, ttl)),
    revokeUser: (userId, notBefore, ttl) => attempt("revokeUser", () => store.revokeUser(userId, notBefore, ttl), () => fallback.revokeUser(userId, notBefore, ttl)),
    revocation: (sid, userId) => attempt("revocation", () => store.revocation(sid, userId), () => fallback.revocation(sid, userId)),
    publish: (message) => attempt("publish", () => store.publish(message), () => fallback.publish(message)),
    // Long-lived: not bounded by the timeout. If it fails, revocations still reach this process
    // through the revocation cache's one-second refresh.
    subscribe: async (listener) => {
      await fallback.subscribe(listener)
      await store.subscribe(listener).catch(subscribeFailed)
    },
  }
}

/** The `store` option: undefined, or an object with the three StateStore methods. */
export function assertStore(value: unknown): StateStore | undefined {
  if (value === undefined) return undefined
  const missing = ["hit", "reset", "claim"].filter((method) => typeof (value as Record<string, unknown> | null)?.[method] !== "function")
  if (missing.length) throw new InvalidOption(`store must be a state store (hit, reset, claim), such as RedisStore from gatehouse/stores/redis; missing ${missing.join(", ")}`)
  return value as StateStore
}
