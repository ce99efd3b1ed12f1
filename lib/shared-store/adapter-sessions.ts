/**
 * The state store when the app configures an adapter and no `store`, for cookie sessions: rate
 * limits, claims and shared values stay in this process's memory (as with no adapter), while
 * cookie-session records and revocations go to the database through the adapter's optional
 * methods (`putCookieSession`, `listCookieSessions`, `deleteCookieSessions`,
 * `addSessionRevocation`, `listSessionRevocations`), so processes sharing only the database share
 * revocation. Reads never wait on the database per request: see `revocation-feed.ts`.
 *
 * A revocation the database does not take is held by this process's feed at once (so this process
 * refuses the session), kept and written again every second until the database takes it
 * (`PendingWrites`), and answered with `RevocationPending`, so an action that must be durable is
 * not confirmed. A retry that finds the row already there (the first write timed out but landed)
 * counts as written.
 *
 * An adapter without these methods (an Auth.js adapter): this process's memory keeps them, as
 * before (`session-revocation-local` warns in production); an adapter with only some of them is
 * refused at start-up (`MissingAdapterMethods`).
 */
import { randomUUID } from "node:crypto"
import type { Adapter, AdapterCookieSession, AdapterSessionRevocation } from "../adapters.js"
import { SESSION_MESSAGE_METHODS, type SessionMessageMethod } from "../core/adapter.js"
import type { LoggerInstance } from "../core/logger.js"
import { AdapterError, MissingAdapterMethods, RevocationPending } from "../errors.js"
import type { WarningCode } from "../warnings.js"
import { MemoryStore } from "./memory.js"
import { PendingWrites, within } from "./pending-writes.js"
import { AdapterRevocationFeed } from "./revocation-feed.js"
import type { StateStore, StoredSession } from "./types.js"

/** How long a retried write may take before the retry counts as failed. */
const RETRY_TIMEOUT_MS = 5000
const LOG_EVERY_MS = 60_000

export const COOKIE_SESSION_METHODS = ["putCookieSession", "listCookieSessions", "deleteCookieSessions", "addSessionRevocation", "listSessionRevocations"] as const

type CookieSessionAdapter = Required<Pick<Adapter, (typeof COOKIE_SESSION_METHODS)[number]>>

/** True when the adapter has all five methods; false when it has none; `MissingAdapterMethods` for some. */
export function storesCookieSessions(adapter: Adapter): adapter is Adapter & CookieSessionAdapter {
  const present = COOKIE_SESSION_METHODS.filter((method) => typeof adapter[method] === "function")
  if (present.length === COOKIE_SESSION_METHODS.length) return true
  if (!present.length) return false
  const missing = COOKIE_SESSION_METHODS.filter((method) => !present.includes(method))
  throw new MissingAdapterMethods(`The adapter has ${present.join(", ")} but lacks ${missing.join(", ")}: sharing cookie-session revocation through the database needs all five (or none)`)
}

/** A record as the store lists it; `user`: the owner of a record kept under another key (lib/federation/provider-sessions.ts). */
function toStored(session: AdapterCookieSession): StoredSession & { user?: string } {
  const stored = { sid: session.sid, createdAt: session.createdAt.getTime(), lastSeenAt: session.lastSeenAt.getTime(), expires: session.expires.getTime(), userAgent: session.userAgent, ip: session.ip }
  return session.owner ? { ...stored, user: session.owner } : stored
}

type SessionMessageAdapter = Required<Pick<Adapter, SessionMessageMethod>>

/** True when the adapter tells other processes of session messages itself (both methods; one alone is ignored). */
export function relaysSessionMessages(adapter: Adapter): adapter is Adapter & SessionMessageAdapter {
  return SESSION_MESSAGE_METHODS.every((method) => typeof adapter[method] === "function")
}

/**
 * This process's memory (database sessions), whose messages go through the adapter: every other
 * method, `revocationFeed` included, is MemoryStore's own.
 */
class AdapterRelayedStore extends MemoryStore {
  /** Its messages reach every process sharing the database (lib/devices/runtime.ts: heartbeats then prove it live). */
  readonly sharedPubSub = true
  readonly #adapter: SessionMessageAdapter
  constructor(adapter: SessionMessageAdapter) {
    super()
    this.#adapter = adapter
  }
  override publish(message: string): Promise<void> {
    return this.#adapter.publishSessionMessage(message)
  }
  override subscribe(listener: (message: string) => void): Promise<void> {
    return this.#adapter.subscribeSessionMessages(listener)
  }
}

export function adapterSessionStore(adapter: CookieSessionAdapter & Adapter, logger: Pick<LoggerInstance, "error">): StateStore & { revocationFeed: AdapterRevocationFeed } {
  const local = new MemoryStore()
  const feed = new AdapterRevocationFeed(adapter, logger)
  const pending = new PendingWrites(() => void pending.flush((write) => within(RETRY_TIMEOUT_MS, write)).catch(() => undefined))
  let lastLogged = -Infinity
  // A retry: written unless the database already has it.
  const rewrite = (revocation: AdapterSessionRevocation) => async () => {
    try {
      await adapter.addSessionRevocation(revocation)
    } catch (error) {
      const found = await adapter.listSessionRevocations({ keys: [revocation.key] })
      if (!found.some((row) => row.id === revocation.id)) throw error
    }
  }
  const revoke = async (rows: Array<{ kind: AdapterSessionRevocation["kind"]; key: string; notBefore: number | null }>, ttlSeconds: number) => {
    const now = Date.now()
    const revocations = rows.map(({ kind, key, notBefore }): AdapterSessionRevocation => ({ id: randomUUID(), kind, key, notBefore: notBefore === null ? null : new Date(notBefore), createdAt: new Date(now), expires: new Date(now + Math.max(1, ttlSeconds) * 1000) }))
    for (const revocation of revocations) feed.note(revocation)
    for (const [index, revocation] of revocations.entries()) {
      try {
        await adapter.addSessionRevocation(revocation)
      } catch (error) {
        for (const rest of revocations.slice(index)) pending.add(rewrite(rest))
        if (Date.now() - lastLogged >= LOG_EVERY_MS) {
          lastLogged = Date.now()
          logger.error(new AdapterError("Recording a session revocation in the database failed; this process refuses the session and writes it when the database answers", { cause: { err: error } }))
        }
        throw new RevocationPending("The database did not take the revocation; this process refuses the session and writes it when the database answers")
      }
    }
  }
  const relays = relaysSessionMessages(adapter)
  return {
    revocationFeed: feed,
    sharedPubSub: relays,
    hit: (key, windowSeconds) => local.hit(key, windowSeconds),
    reset: (key) => local.reset(key),
    claim: (key, ttlSeconds) => local.claim(key, ttlSeconds),
    putValue: (key, value, ttlSeconds) => local.putValue(key, value, ttlSeconds),
    getValue: (key) => local.getValue(key),
    async putSession(userId, record) {
      const owner = (record as StoredSession & { user?: unknown }).user
      await adapter.putCookieSession({
        sid: record.sid,
        userId,
        createdAt: new Date(record.createdAt),
        lastSeenAt: new Date(record.lastSeenAt),
        expires: new Date(record.expires),
        userAgent: record.userAgent,
        ip: record.ip,
        ...(typeof owner === "string" && { owner }),
      })
    },
    async listSessions(userId) {
      const now = Date.now()
      return (await adapter.listCookieSessions(userId)).filter((session) => session.expires.getTime() > now).map(toStored)
    },
    async removeSessions(userId, sids) {
      if (sids.length) await adapter.deleteCookieSessions(userId, [...sids])
    },
    revokeSid: (sid, ttlSeconds) => revoke([{ kind: "session", key: sid, notBefore: null }], ttlSeconds),
    // The spare first: the user's revocation never reaches a process before the session it spares.
    revokeUser: (userId, notBefore, ttlSeconds, spare) =>
      revoke([...(spare === undefined ? [] : [{ kind: "spare" as const, key: spare, notBefore }]), { kind: "user", key: userId, notBefore }], ttlSeconds),
    revocation: (sid, userId) => feed.state(sid, userId),
    // Other processes learn by polling the database; through the adapter at once, when it relays messages.
    publish: (message) => (relays ? adapter.publishSessionMessage!(message) : Promise.resolve()),
    subscribe: (listener) => (relays ? adapter.subscribeSessionMessages!(listener) : Promise.resolve()),
  }
}

/**
 * The store of a configuration: the one given; else, for cookie sessions with an adapter that
 * stores them, the adapter-backed one; else this process's memory. Either way, an adapter that
 * relays session messages (`publishSessionMessage`, `subscribeSessionMessages`) carries the
 * store's publish and subscribe, so processes sharing its database hear of sign-outs and
 * revocations at once, not within the caches' one second.
 */
export function defaultStore(adapter: Adapter | undefined, strategy: "cookie" | "database", logger: Pick<LoggerInstance, "error">, warn: (code: WarningCode) => void, production: boolean): StateStore {
  if (adapter && strategy !== "database") {
    if (storesCookieSessions(adapter)) return adapterSessionStore(adapter, logger)
    if (production) warn("session-revocation-local")
  }
  return adapter && relaysSessionMessages(adapter) ? new AdapterRelayedStore(adapter) : new MemoryStore()
}
