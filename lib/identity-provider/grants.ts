/**
 * A user's connected apps (issue #32): the clients they allowed, read from `oidc-provider`'s
 * stored grants (model `Grant`, one or more per client), and revoking one. Revoking deletes every
 * grant the user gave that client, with each grant's tokens and codes (`deleteOidcGrant`): its
 * access tokens stop working, its refresh tokens are refused, and the app asks for consent again
 * if the user comes back to it.
 */
import type { Adapter } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import type { AdapterOidcRecord, OIDC_ADAPTER_METHODS } from "./adapter.js"
import { IdentityProviderUnavailable } from "./errors.js"
import type { ResolvedOidcProvider } from "./settings.js"

type Storage = Required<Pick<Adapter, (typeof OIDC_ADAPTER_METHODS)[number]>>

/** The most records `listOidcRecords` returns (the adapter interface's limit). */
const LIST_LIMIT = 1000

/** An app the user allowed, with everything they allowed it across its grants. */
export interface ConnectedApp {
  clientId: string
  /** The client's `client_name`, else its id. */
  name: string
  /** The client's `client_uri`, when it has one (the client's own words: show it as text). */
  uri?: string
  /** Every scope granted (OpenID Connect scopes and the APIs' scopes), sorted. */
  scopes: string[]
  /** The APIs (resource indicators) its tokens may be for, sorted. */
  resources: string[]
  /** When the user first allowed it (the earliest grant still there). */
  since: Date
}

/** The part of `oidc-provider`'s Grant payload read here. */
interface GrantPayload {
  clientId?: unknown
  accountId?: unknown
  iat?: unknown
  exp?: unknown
  openid?: { scope?: unknown }
  resources?: Record<string, unknown>
}

function settingsOf(config: ResolvedConfig): ResolvedOidcProvider {
  const settings = config.oidcProvider
  if (!settings) throw new IdentityProviderUnavailable("The identity provider is off: set the oidcProvider option")
  return settings
}

function storageOf(config: ResolvedConfig): Storage {
  settingsOf(config)
  return config.adapter as Storage
}

function payloadOf(record: AdapterOidcRecord): GrantPayload | undefined {
  try {
    const payload = JSON.parse(record.payload) as unknown
    return payload && typeof payload === "object" && !Array.isArray(payload) ? (payload as GrantPayload) : undefined
  } catch {
    return undefined
  }
}

const words = (value: unknown): string[] => (typeof value === "string" ? value.split(" ").filter(Boolean) : [])

function resourcesOf(payload: GrantPayload): Record<string, unknown> {
  const resources = payload.resources
  return resources && typeof resources === "object" && !Array.isArray(resources) ? resources : {}
}

/** The grant's scopes: its OpenID Connect scopes and every API's. */
function grantScopes(payload: GrantPayload): string[] {
  return [...words(payload.openid?.scope), ...Object.values(resourcesOf(payload)).flatMap(words)]
}

/** The user's grants still in force, with their payloads (a grant whose own `exp` has passed is left out too). */
async function liveGrants(storage: Storage, userId: string, clientId?: string): Promise<Array<{ record: AdapterOidcRecord; payload: GrantPayload }>> {
  const now = Date.now() / 1000
  const records = await storage.listOidcRecords("Grant", clientId === undefined ? { accountId: userId } : { accountId: userId, clientId })
  const grants: Array<{ record: AdapterOidcRecord; payload: GrantPayload }> = []
  for (const record of records) {
    if (record.accountId !== userId || !record.clientId) continue
    const payload = payloadOf(record)
    if (!payload) continue
    if (typeof payload.exp === "number" && payload.exp <= now) continue
    grants.push({ record, payload })
  }
  return grants
}

/** The client as the page names it: declared in the configuration, else stored (registered at run time). */
async function clientLabel(settings: ResolvedOidcProvider, storage: Storage, clientId: string): Promise<{ name: string; uri?: string }> {
  let metadata: Record<string, unknown> | undefined = settings.clients.find((client) => client.client_id === clientId)
  if (!metadata) {
    const stored = await storage.getOidcRecord("Client", clientId)
    metadata = stored ? (payloadOf(stored) as Record<string, unknown> | undefined) : undefined
  }
  const name = typeof metadata?.client_name === "string" && metadata.client_name.trim() ? metadata.client_name : clientId
  const uri = typeof metadata?.client_uri === "string" && metadata.client_uri ? metadata.client_uri : undefined
  return uri === undefined ? { name } : { name, uri }
}

/** The apps the user allowed (their unexpired grants, by client), sorted by name. */
export async function listConnectedApps(config: ResolvedConfig, userId: string): Promise<ConnectedApp[]> {
  const settings = settingsOf(config)
  const storage = storageOf(config)
  const byClient = new Map<string, { scopes: Set<string>; resources: Set<string>; since: number }>()
  for (const { record, payload } of await liveGrants(storage, userId)) {
    const clientId = record.clientId!
    const app = byClient.get(clientId) ?? { scopes: new Set<string>(), resources: new Set<string>(), since: Infinity }
    for (const scope of grantScopes(payload)) app.scopes.add(scope)
    for (const resource of Object.keys(resourcesOf(payload))) app.resources.add(resource)
    const issued = typeof payload.iat === "number" ? payload.iat * 1000 : Date.now()
    app.since = Math.min(app.since, issued)
    byClient.set(clientId, app)
  }
  const apps: ConnectedApp[] = []
  for (const [clientId, app] of byClient) {
    apps.push({
      clientId,
      ...(await clientLabel(settings, storage, clientId)),
      scopes: [...app.scopes].sort(),
      resources: [...app.resources].sort(),
      since: new Date(app.since),
    })
  }
  return apps.sort((a, b) => a.name.localeCompare(b.name) || a.clientId.localeCompare(b.clientId))
}

/**
 * Revokes what the user allowed the client: every grant of theirs for it, with its tokens and
 * codes. Fires `oidc.app.revoked` (`actorId`: who did it; absent: the app's server code). False
 * when there was nothing to revoke.
 */
export async function revokeConnectedApp(config: ResolvedConfig, userId: string, clientId: string, actorId?: string): Promise<boolean> {
  const storage = storageOf(config)
  const now = Date.now() / 1000
  const scopes = new Set<string>()
  let found = false
  // A list holds at most LIST_LIMIT records: a full one is read again (each pass deletes what it read).
  for (let full = true; full; ) {
    const batch = await storage.listOidcRecords("Grant", { accountId: userId, clientId })
    const mine = batch.filter((record) => record.accountId === userId && record.clientId === clientId)
    full = batch.length >= LIST_LIMIT && mine.length > 0
    for (const record of mine) {
      const payload = payloadOf(record)
      if (payload && !(typeof payload.exp === "number" && payload.exp <= now)) {
        found = true
        for (const scope of grantScopes(payload)) scopes.add(scope)
      }
      await storage.deleteOidcGrant(record.id)
      await storage.deleteOidcRecord("Grant", record.id)
    }
  }
  if (!found) return false
  await fireEvent(config, "oidcProvider", { type: "oidc.app.revoked", clientId, userId, actorId: actorId ?? null, scopes: [...scopes].sort() })
  return true
}

/** Revokes every app the user allowed (when the account goes); the clients whose access was revoked. */
export async function revokeAllConnectedApps(config: ResolvedConfig, userId: string): Promise<string[]> {
  const storage = storageOf(config)
  const revoked: string[] = []
  // Each pass revokes every client its list names, deleting all of their grants: the next list is shorter.
  for (let full = true; full; ) {
    const batch = await storage.listOidcRecords("Grant", { accountId: userId })
    const clients = [...new Set(batch.filter((record) => record.accountId === userId && record.clientId).map((record) => record.clientId!))]
    full = batch.length >= LIST_LIMIT && clients.length > 0
    for (const clientId of clients) if ((await revokeConnectedApp(config, userId, clientId)) && !revoked.includes(clientId)) revoked.push(clientId)
  }
  return revoked
}
