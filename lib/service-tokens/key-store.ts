/**
 * Generated signing keys, shared by every process of the app through the shared store (`store`):
 * one record holds the published keys, each private half sealed with the app's secret (never in
 * clear), and the schedule (schedule.ts) says when one is made or dropped. One process makes a
 * key at a time: it takes a lock (`store.hit` counts 1 for exactly one caller in its window), reads
 * the record again and writes it; the others read what it wrote. Without a shared store (the
 * default is this process's memory) each process has keys of its own: multi-process apps need
 * `RedisStore` or configured `keys` (docs/service-tokens.md).
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { AuthError } from "../errors.js"
import { openToken, sealToken } from "../jwt/codec.js"
import type { ServiceTokenAlgorithm } from "./options.js"
import { plan, storedFor, type Plan, type Timing } from "./schedule.js"

export interface StoredKey {
  readonly kid: string
  readonly alg: ServiceTokenAlgorithm
  /** When it starts signing (epoch ms). */
  readonly from: number
  readonly publicJwk: JWK
  /** The private JWK, sealed with the app's secret (lib/jwt/codec.ts, a salt of its own). */
  readonly sealed: string
}

const RECORD = "service-tokens:keys"
const LOCK = "service-tokens:keys:lock"
const SALT = "gatehouse.service-tokens.signing-key"
/** Seconds the lock is held at most (a process that died holding it frees it then). */
const LOCK_SECONDS = 10
/** How long a process without a key waits for the one making it (polls of 100 ms). */
const WAIT_POLLS = 50
/** The sealed key's own expiry: the store's TTL ends the record long before (schedule.ts). */
const SEAL_SECONDS = 2 * 365 * 24 * 60 * 60

/** Stores without `putValue`/`getValue`: the record is kept in this process's memory, per store. */
const localRecords = new WeakMap<object, string>()

async function readRecord(config: ResolvedConfig): Promise<StoredKey[]> {
  const { store } = config
  const text = store.getValue ? await store.getValue(RECORD) : (localRecords.get(store) ?? null)
  if (!text) return []
  try {
    const parsed = JSON.parse(text) as { keys?: unknown }
    return Array.isArray(parsed.keys) ? (parsed.keys as StoredKey[]).filter((key) => typeof key?.kid === "string" && typeof key.from === "number" && typeof key.sealed === "string") : []
  } catch {
    return []
  }
}

async function writeRecord(config: ResolvedConfig, keys: readonly StoredKey[], timing: Timing): Promise<void> {
  const text = JSON.stringify({ keys })
  if (config.store.putValue) await config.store.putValue(RECORD, text, storedFor(timing))
  else localRecords.set(config.store, text)
}

async function makeKey(config: ResolvedConfig, alg: ServiceTokenAlgorithm, from: number): Promise<StoredKey> {
  const pair = await generateKeyPair(alg, { extractable: true })
  const publicJwk = await exportJWK(pair.publicKey)
  const kid = await calculateJwkThumbprint(publicJwk)
  const privateJwk = await exportJWK(pair.privateKey)
  const sealed = sealToken({ jwk: privateJwk }, config.secrets[0] as string, SALT, SEAL_SECONDS)
  return { kid, alg, from, publicJwk: { ...publicJwk, kid, alg, use: "sig" }, sealed }
}

/** The private JWK of a stored key; null when no secret of the app opens it (the secret was replaced). */
export function openKey(config: ResolvedConfig, key: StoredKey): JWK | null {
  const opened = openToken(key.sealed, config.secrets, SALT)
  const jwk = opened?.payload.jwk
  return jwk && typeof jwk === "object" ? (jwk as JWK) : null
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Makes the planned key under the lock; false when another process holds the lock. */
async function change(config: ResolvedConfig, alg: ServiceTokenAlgorithm, timing: Timing): Promise<boolean> {
  const { count } = await config.store.hit(LOCK, LOCK_SECONDS)
  if (count !== 1) return false
  try {
    // Read again under the lock: another process may have made the key since.
    let keys = await readRecord(config)
    let current = plan(keys, Date.now(), timing)
    if (current.create === undefined) return true
    // The first key and the next one (two at most: the plan asks for no more after the next).
    for (let made = 0; current.create !== undefined && made < 2; made++) {
      keys = [...current.keep, await makeKey(config, alg, current.create)]
      current = plan(keys, Date.now(), timing)
    }
    await writeRecord(config, keys, timing)
    return true
  } finally {
    await config.store.reset(LOCK)
  }
}

/**
 * The stored keys and their plan at this moment, after making the key the schedule asks for (this
 * process, or another one holding the lock). Throws when no key can be had.
 */
export async function generatedKeys(config: ResolvedConfig, alg: ServiceTokenAlgorithm, timing: Timing): Promise<Plan<StoredKey>> {
  let current = plan(await readRecord(config), Date.now(), timing)
  if (current.create === undefined) return current
  if (await change(config, alg, timing)) return plan(await readRecord(config), Date.now(), timing)
  // Another process is making it. The current key (if any) signs meanwhile; without one, wait.
  for (let poll = 0; !current.signing && poll < WAIT_POLLS; poll++) {
    await pause(100)
    current = plan(await readRecord(config), Date.now(), timing)
  }
  if (!current.signing) throw new AuthError("No service-token signing key could be read or made: another process holds the key lock and wrote none")
  return current
}
