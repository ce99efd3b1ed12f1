/**
 * Per-process session state of one configuration: the revocation cache and the database-session
 * cache, kept current by the revocation messages every process publishes through the store
 * (Redis pub/sub; in-process with the memory store). Made on first use; the subscription starts
 * then, once.
 *
 * Messages (JSON): `{"sid": id}` ends one session (cookie sid, or a database session's id);
 * `{"user": id, "notBefore": ms}` ends the user's sessions created before `notBefore` (0: only
 * drop cached database sessions of the user, some of which were deleted); with `"spare": sid`,
 * all but that one ("sign out everywhere else"). Each also carries its publisher and sequence number
 * (`p`, `n`), and every process sends heartbeats, so the caches can trust what they learnt for
 * longer while the pub/sub is proven to deliver everything (lib/devices/feed-watch.ts). A store that
 * can list every revocation (RedisStore on one server) also gets the pub/sub feed: all of them in
 * memory, so a session not seen lately is answered without a round trip (./pubsub-feed.ts).
 */
import { randomBytes } from "node:crypto"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { MemoryStore } from "../shared-store/memory.js"
import type { StateStore } from "../shared-store/types.js"
import { DatabaseSessionCache } from "./database-cache.js"
import { BEAT_MS, FeedWatch, type Envelope } from "./feed-watch.js"
import { PubSubRevocationFeed } from "./pubsub-feed.js"
import { ONE_SECOND, RevocationCache } from "./revocation-cache.js"
import { longestSessionSeconds } from "./session-life.js"

export type RevocationMessage = { sid: string } | { user: string; notBefore: number; spare?: string }

export interface SessionRuntime {
  readonly revocations: RevocationCache
  readonly databaseSessions: DatabaseSessionCache
  /** Watches the pub/sub when it reaches other processes; undefined with a store of this process only. */
  readonly watch?: FeedWatch
  /** Every live revocation in memory, when the store can list them and its pub/sub reaches every process. */
  readonly feed?: PubSubRevocationFeed
}

const runtimes = new WeakMap<ResolvedConfig, SessionRuntime>()

function apply(runtime: SessionRuntime, message: RevocationMessage): void {
  runtime.feed?.note(message)
  if ("sid" in message) {
    runtime.revocations.revokeSid(message.sid)
    runtime.databaseSessions.dropSid(message.sid)
  } else {
    if (message.spare !== undefined) runtime.revocations.spare(message.spare, message.notBefore)
    if (message.notBefore > 0) runtime.revocations.noteUser(message.user, message.notBefore, Date.now(), message.spare ?? null)
    runtime.databaseSessions.dropUser(message.user)
  }
}

function parse(text: string, watch: FeedWatch | undefined): RevocationMessage | null {
  try {
    const message = JSON.parse(text) as Record<string, unknown>
    if (watch && message && typeof message === "object" && !watch.receive(message as Envelope, Date.now())) return null
    if (typeof message.sid === "string") return { sid: message.sid }
    if (typeof message.user === "string" && typeof message.notBefore === "number") {
      return typeof message.spare === "string" ? { user: message.user, notBefore: message.notBefore, spare: message.spare } : { user: message.user, notBefore: message.notBefore }
    }
  } catch {
    // not one of ours
  }
  return null
}

/**
 * Does the store's pub/sub reach the other processes that share the sessions? Not the in-process
 * MemoryStore's (its records are this process's alone, but database sessions are shared through
 * the adapter); a store that relays it elsewhere says so with `sharedPubSub`.
 */
function sharesPubSub(store: StateStore): boolean {
  if (!store.publish || !store.subscribe) return false
  return store.sharedPubSub ?? !(store instanceof MemoryStore)
}

export function runtimeOf(config: ResolvedConfig): SessionRuntime {
  const known = runtimes.get(config)
  if (known) return known
  const { store, session } = config
  const watch = sharesPubSub(store) ? new FeedWatch(randomBytes(9).toString("base64url")) : undefined
  const policy = watch ?? ONE_SECOND
  const list = store.listRevocations?.bind(store)
  const feed = watch && list && !store.revocationFeed ? new PubSubRevocationFeed({ list, watch, lifeMs: () => longestSessionSeconds(config) * 1000, logger: config.logger }) : undefined
  const made: SessionRuntime = {
    revocations: new RevocationCache(store.revocationFeed ?? feed, session.cacheSize, policy),
    databaseSessions: new DatabaseSessionCache(session.cacheSize, policy),
    watch,
    feed,
  }
  runtimes.set(config, made)
  const listening = store.subscribe?.((text) => {
    const message = parse(text, watch)
    if (message) apply(made, message)
  })
  listening?.then(
    () => {
      if (watch) startBeats(config, watch, feed)
    },
    (error: unknown) => config.logger.error(error as Error),
  )
  return made
}

/**
 * Heartbeats through the store, one every `BEAT_MS` while the process is not idle (the timer does
 * not keep it alive). A heartbeat that cannot be sent proves nothing, is not retried, and pauses
 * them until the next use.
 */
function startBeats(config: ResolvedConfig, watch: FeedWatch, feed: PubSubRevocationFeed | undefined): void {
  // The configuration is held weakly (the feed too: it holds the store): once the app drops it, the heartbeats stop.
  const held = new WeakRef(config.store)
  const heldFeed = feed && new WeakRef(feed)
  const timer = setInterval(() => {
    const store = held.deref()
    if (!store) {
      clearInterval(timer)
      return
    }
    const now = Date.now()
    watch.sweep(now)
    const beat = watch.beat(now)
    if (beat !== null) store.publish?.(beat).catch(() => watch.pause())
    heldFeed?.deref()?.tick(now)
  }, BEAT_MS)
  timer.unref()
}

/** Applies a revocation on this process at once, then tells the others (a failure is logged: the refresh bound still holds). */
export async function announce(config: ResolvedConfig, message: RevocationMessage): Promise<void> {
  const runtime = runtimeOf(config)
  apply(runtime, message)
  try {
    await config.store.publish?.(runtime.watch ? runtime.watch.stamp(message) : JSON.stringify(message))
  } catch (error) {
    config.logger.error(error as Error)
  }
}
