/**
 * What a sign-in through a connection carries from its start to the identity provider's answer,
 * kept in the shared store (not in a cookie: the answer comes as a cross-site POST, which carries
 * no SameSite cookie): the connection and where to go afterwards, under an opaque single-use id
 * sent as RelayState (SAML) or inside `state` (OIDC). And the store node-saml keeps its request
 * ids in (`InResponseTo`), so an answer to a request made on another process is recognised, and
 * an answer to no request of ours is known as unsolicited.
 */
import type { CacheItem, CacheProvider } from "@node-saml/node-saml"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { randomSlice } from "../crypto/random.js"

/** How long a started sign-in waits for its answer (seconds). */
export const RELAY_SECONDS = 10 * 60

export interface SsoRelay {
  connectionId: string
  /** Where the browser goes once signed in (checked by the redirect rules when the sign-in started). */
  callbackUrl: string
  /** OIDC: the PKCE verifier and nonce of this sign-in. */
  codeVerifier?: string
  nonce?: string
}

const RELAY_ID = /^[A-Za-z0-9_-]{43}$/

export async function saveRelay(config: ResolvedConfig, relay: SsoRelay): Promise<string> {
  const id = randomSlice(32).toString("base64url")
  await config.store.putValue!(`sso:relay:${id}`, JSON.stringify(relay), RELAY_SECONDS)
  return id
}

/** The relay of `id`, once: a second take (a replayed answer) gets null. */
export async function takeRelay(config: ResolvedConfig, id: unknown): Promise<SsoRelay | null> {
  if (typeof id !== "string" || !RELAY_ID.test(id)) return null
  if (!(await config.store.claim(`sso:relay-used:${id}`, RELAY_SECONDS))) return null
  const stored = await config.store.getValue!(`sso:relay:${id}`)
  if (!stored) return null
  try {
    const relay = JSON.parse(stored) as SsoRelay
    return typeof relay.connectionId === "string" && typeof relay.callbackUrl === "string" ? relay : null
  } catch {
    return null
  }
}

/** node-saml's request-id cache, in the shared store (every process sees a request made on another). */
export function samlRequestCache(config: ResolvedConfig, connectionId: string): CacheProvider {
  const key = (id: string) => `sso:saml-request:${connectionId}:${id}`
  return {
    async saveAsync(id: string, value: string): Promise<CacheItem | null> {
      await config.store.putValue!(key(id), value, RELAY_SECONDS)
      return { value, createdAt: Date.now() }
    },
    async getAsync(id: string): Promise<string | null> {
      return (await config.store.getValue!(key(id))) || null
    },
    async removeAsync(id: string | null): Promise<string | null> {
      if (id === null) return null
      const value = (await config.store.getValue!(key(id))) || null
      await config.store.putValue!(key(id), "", 1)
      return value
    },
  }
}
