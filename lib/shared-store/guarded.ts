/**
 * A shared store (Redis) as Gatehouse uses it: every call bounded by a timeout, and while the
 * store fails, this process's memory stands in for the rate limits (they then hold per process,
 * not across processes) while claims (used passkey challenges) are refused with
 * `StoreUnavailable`, with the failure logged at most once a minute. While it is
 * down, calls do not wait for it: a background probe asks it again every 2 s, and calls go back
 * to the shared store as soon as it answers.
 *
 * Revocations are never kept in memory only: one the store does not take (with the announcement
 * and record removal that go with it) is applied in this process's memory at once (so this
 * process refuses the session) and kept in order in `PendingWrites`, written by the probe before
 * the shared store is used again, and retried in the background (every 2 s) until written; the
 * revocation itself answers `RevocationPending`, so an action that must be durable is not
 * confirmed. Until then, the store's answers about a session are merged with this process's
 * memory, so the session stays refused here whatever the store says.
 */
import { AdapterError, InvalidOption, RevocationPending, StoreUnavailable } from "../errors.js"
import type { LoggerInstance } from "../types.js"
import { MemoryStore } from "./memory.js"
import { PendingWrites } from "./pending-writes.js"
import { hasSessionMethods, isHeartbeat, type RevocationState, type SessionStateStore, type StateStore } from "./types.js"

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
  // The probe writes what is pending first; the shared store is used again once nothing is (one
  // added meanwhile is written by the next retry, which PendingWrites schedules).
  const pending = new PendingWrites(() => probe())
  const probe = () => {
    if (probing || Date.now() < retryAt) return
    probing = true
    bounded(Promise.resolve().then(() => store.reset(PROBE_KEY)))
      .then(() => pending.flush((write) => bounded(Promise.resolve().then(write))))
      .then(
        () => {
          if (!pending.size) down = false
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
  /**
   * A write that must reach the shared store (a revocation, its announcement, a record removal):
   * when the store does not take it, applied in this process's memory, kept and retried (see
   * PendingWrites), and, for a revocation (`confirm`), answered with `RevocationPending`.
   */
  const durable: Durable = async (operation, shared, local, confirm) => {
    if (!down) {
      try {
        await bounded(Promise.resolve().then(shared))
        return
      } catch (error) {
        failed(operation, error)
      }
    }
    await local()
    pending.add(shared)
    probe()
    if (confirm) throw new RevocationPending(`The shared state store did not take the revocation (${operation}); this process refuses the session and writes it when the store answers`)
  }
  const list = hasSessionMethods(store) ? store.listRevocations?.bind(store) : undefined
  return {
    hit: (key, window) => attempt("hit", () => store.hit(key, window), () => fallback.hit(key, window)),
    reset: (key) => attempt("reset", () => store.reset(key), () => fallback.reset(key)),
    // A claim is a single-use guarantee across processes (a passkey challenge): this process's
    // memory cannot give it, so while the shared store is unreachable, claims fail closed.
    claim: (key, ttl) => attempt("claim", () => store.claim(key, ttl), () => Promise.reject(new StoreUnavailable("The shared state store is unreachable: a single use (a passkey challenge) cannot be checked across processes, so it is refused until the store answers"))),
    // Shared values (refreshed provider tokens): this process's memory when the store has none or is down.
    putValue: (key, value, ttl) => (store.putValue ? attempt("putValue", () => (store.putValue as NonNullable<StateStore["putValue"]>)(key, value, ttl), () => fallback.putValue(key, value, ttl)) : fallback.putValue(key, value, ttl)),
    getValue: (key) => (store.getValue ? attempt("getValue", () => (store.getValue as NonNullable<StateStore["getValue"]>)(key), () => fallback.getValue(key)) : fallback.getValue(key)),
    // Listing every revocation (the pub/sub feed's load) is long and never answered from memory:
    // not bounded by the timeout (the feed bounds it), refused at once while the store is down.
    ...(list ? { listRevocations: () => (down ? Promise.reject(new StoreUnavailable("The shared state store is unreachable: its revocations cannot be listed")) : list()) } : {}),
    ...guardedSessionMethods(store, fallback, attempt, durable, (error) => logger.error(new AdapterError("The shared state store refused the revocation subscription; revocations from other processes arrive within the one-second cache instead", { cause: { err: error } }))),
  }
}

type Attempt = <T>(operation: string, shared: () => Promise<T>, local: () => Promise<T>) => Promise<T>
type Durable = (operation: string, shared: () => Promise<unknown>, local: () => Promise<unknown>, confirm: boolean) => Promise<void>

/** What both know: revoked if either says so, the later "not before" and "spared from". */
function merged(shared: RevocationState, local: RevocationState): RevocationState {
  return { revoked: shared.revoked || local.revoked, notBefore: Math.max(shared.notBefore, local.notBefore), spared: Math.max(shared.spared ?? 0, local.spared ?? 0) }
}

/**
 * The revocable-session methods, guarded the same way. A store without them (a custom store
 * written before them) gets this process's memory for them, for good.
 */
function guardedSessionMethods(store: StateStore, fallback: MemoryStore, attempt: Attempt, durable: Durable, subscribeFailed: (error: unknown) => void): SessionStateStore & Pick<StateStore, "sharedPubSub"> {
  if (!hasSessionMethods(store)) {
    // Bound, so the methods survive being spread into the guarded store. The pub/sub is this
    // process's memory: it reaches no other process.
    return {
      sharedPubSub: false,
      putSession: (userId, record) => fallback.putSession(userId, record),
      listSessions: (userId) => fallback.listSessions(userId),
      removeSessions: (userId, sids) => fallback.removeSessions(userId, sids),
      revokeSid: (sid, ttl) => fallback.revokeSid(sid, ttl),
      revokeUser: (userId, notBefore, ttl, spare) => fallback.revokeUser(userId, notBefore, ttl, spare),
      revocation: (sid, userId) => fallback.revocation(sid, userId),
      publish: (message) => fallback.publish(message),
      subscribe: (listener) => fallback.subscribe(listener),
    }
  }
  return {
    putSession: (userId, record, ttl) => attempt("putSession", () => store.putSession(userId, record, ttl), () => fallback.putSession(userId, record)),
    listSessions: (userId) => attempt("listSessions", () => store.listSessions(userId), () => fallback.listSessions(userId)),
    removeSessions: (userId, sids) => durable("removeSessions", () => store.removeSessions(userId, sids), () => fallback.removeSessions(userId, sids), false),
    revokeSid: (sid, ttl) => durable("revokeSid", () => store.revokeSid(sid, ttl), () => fallback.revokeSid(sid, ttl), true),
    revokeUser: (userId, notBefore, ttl, spare) => durable("revokeUser", () => store.revokeUser(userId, notBefore, ttl, spare), () => fallback.revokeUser(userId, notBefore, ttl, spare), true),
    // Merged with this process's memory: a revocation still pending (or the store restarted empty) keeps refusing here.
    revocation: (sid, userId) =>
      attempt(
        "revocation",
        async () => merged(await store.revocation(sid, userId), await fallback.revocation(sid, userId)),
        () => fallback.revocation(sid, userId),
      ),
    // A heartbeat proves the shared pub/sub delivers (lib/devices/feed-watch.ts): never answered
    // from memory, nor kept to be sent later.
    publish: (message) => (isHeartbeat(message) ? attempt("publish", () => store.publish(message), async () => undefined) : durable("publish", () => store.publish(message), () => fallback.publish(message), false)),
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
