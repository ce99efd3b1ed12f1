/**
 * The key that signs now and the JWKS to publish, for this process. Configured keys are imported
 * once. Generated keys are read from the shared store (key-store.ts) at most every CACHE_SECONDS,
 * sooner when the schedule changes something, by one read that concurrent requests share; each
 * private key is opened and imported once.
 */
import { importJWK, type CryptoKey, type JWK } from "jose"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { AuthError } from "../errors.js"
import { generatedKeys, openKey, type StoredKey } from "./key-store.js"
import type { ResolvedServiceTokens, ServiceTokenAlgorithm } from "./options.js"

export interface KeySet {
  readonly signing: { readonly kid: string; readonly alg: ServiceTokenAlgorithm; readonly key: CryptoKey }
  readonly jwks: { readonly keys: readonly JWK[] }
}

interface View {
  /** Epoch ms after which the view is read again. */
  until: number
  set: Promise<KeySet>
}

interface State {
  view?: View
  /** Imported private keys by kid (generated keys only). */
  imported: Map<string, Promise<CryptoKey>>
}

const states = new WeakMap<ResolvedServiceTokens, State>()

async function importPrivate(jwk: JWK, alg: ServiceTokenAlgorithm): Promise<CryptoKey> {
  return (await importJWK(jwk, alg)) as CryptoKey
}

async function fromConfig(options: ResolvedServiceTokens): Promise<KeySet> {
  const keys = options.keys ?? []
  const first = keys[0]
  if (!first) throw new AuthError("serviceTokens.keys is empty")
  return { signing: { kid: first.kid, alg: first.alg, key: await importPrivate(first.privateJwk, first.alg) }, jwks: Object.freeze({ keys: keys.map((key) => key.publicJwk) }) }
}

function importStored(config: ResolvedConfig, state: State, key: StoredKey): Promise<CryptoKey> {
  let imported = state.imported.get(key.kid)
  if (!imported) {
    const jwk = openKey(config, key)
    if (!jwk) return Promise.reject(new AuthError(`The service-token key ${key.kid} cannot be opened with the app's secret (was the secret replaced without keeping the old one?)`))
    imported = importPrivate(jwk, key.alg)
    imported.catch(() => state.imported.delete(key.kid))
    state.imported.set(key.kid, imported)
  }
  return imported
}

async function fromStore(config: ResolvedConfig, options: ResolvedServiceTokens, state: State, view: View): Promise<KeySet> {
  const planned = await generatedKeys(config, options.algorithm, { maxAge: options.maxAge, every: options.rotation })
  const signing = planned.signing
  if (!signing) throw new AuthError("No service-token signing key")
  view.until = planned.nextChange
  // Forget the imported keys that left the JWKS.
  const kids = new Set(planned.keep.map((key) => key.kid))
  for (const kid of state.imported.keys()) if (!kids.has(kid)) state.imported.delete(kid)
  const key = await importStored(config, state, signing)
  return { signing: { kid: signing.kid, alg: signing.alg, key }, jwks: Object.freeze({ keys: planned.keep.map((stored) => stored.publicJwk) }) }
}

/** The signing key and the JWKS of `options` at this moment. */
export function currentKeys(config: ResolvedConfig, options: ResolvedServiceTokens): Promise<KeySet> {
  let state = states.get(options)
  if (!state) {
    state = { imported: new Map() }
    states.set(options, state)
  }
  const now = Date.now()
  if (state.view && state.view.until > now) return state.view.set
  const view: View = { until: options.keys ? Infinity : now, set: Promise.resolve() as unknown as Promise<KeySet> }
  view.set = options.keys ? fromConfig(options) : fromStore(config, options, state, view)
  // A failed read is not kept: the next request tries again.
  view.set.catch(() => {
    if (state.view === view) state.view = undefined
  })
  // Until it is read, concurrent requests share this read.
  if (!options.keys) view.until = Infinity
  state.view = view
  return view.set
}
