/**
 * Making, listing and revoking API keys (issue #31). A user's key: scopes from `apiKeys.scopes`.
 * An organization's key: made by a member whose role grants `organization:update`, with scopes
 * among that member's own permissions there (a key never holds more than its maker); server code
 * may give any declared permission. The key is returned once, at creation; only its hash and its
 * first characters are stored. Revoking deletes the key and drops it from every process's cache
 * at once (the bound without the channel: one second).
 */
import { randomUUID } from "node:crypto"
import type { Adapter } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { InvalidRequest } from "../errors.js"
import { demand, standing } from "../organizations/access.js"
import type { AdapterApiKey, API_KEY_ADAPTER_METHODS } from "./adapter.js"
import { announceRevokedKey } from "./cache.js"
import { ApiKeyNotFound, ApiKeysUnavailable, InsufficientScope } from "./errors.js"
import { keyHash, keyStart, newKey } from "./format.js"
import type { ResolvedApiKeys } from "./settings.js"

type Storage = Required<Pick<Adapter, (typeof API_KEY_ADAPTER_METHODS)[number]>>

/** Who acts: a signed-in user, or null for the app's server code. */
export type Actor = { userId: string } | null

/** A key as its owner sees it: never the key, nor its hash. */
export interface ApiKeyView {
  id: string
  name: string
  /** The key's first characters (its prefix and four more). */
  start: string
  owner: "user" | "organization"
  userId: string | null
  organizationId: string | null
  createdBy: string | null
  scopes: string[]
  createdAt: string
  expires: string | null
  lastUsedAt: string | null
}

export interface CreatedApiKey {
  /** The key itself: shown once, never stored. */
  key: string
  apiKey: ApiKeyView
}

export interface NewKeyInput {
  name?: unknown
  scopes?: unknown
  /** Seconds from now, or an ISO 8601 time (`expires`). */
  expiresIn?: unknown
  expires?: unknown
  /** An organization's key (else the actor's own). */
  organizationId?: unknown
}

const MAX_NAME = 100

export function settingsOf(config: ResolvedConfig): ResolvedApiKeys {
  const settings = config.apiKeys
  if (!settings) throw new ApiKeysUnavailable("API keys are off: set the apiKeys option")
  return settings
}

function storageOf(config: ResolvedConfig): Storage {
  settingsOf(config)
  return config.adapter as Storage
}

export function viewOf(key: AdapterApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    start: key.start,
    owner: key.organizationId === null ? "user" : "organization",
    userId: key.userId,
    organizationId: key.organizationId,
    createdBy: key.createdBy,
    scopes: [...key.scopes],
    createdAt: key.createdAt.toISOString(),
    expires: key.expires?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  }
}

function nameOf(value: unknown): string {
  if (typeof value !== "string" || !value.trim() || value.length > MAX_NAME) throw new InvalidRequest(`A key needs a name of 1 to ${MAX_NAME} characters`)
  return value.trim()
}

/** A form sends one scope as a string, several as a list, or a space-separated line. */
function scopesOf(value: unknown): string[] {
  if (value === undefined || value === null || value === "") return []
  const list = typeof value === "string" ? value.split(/[\s,]+/) : Array.isArray(value) ? value : null
  if (!list || list.some((scope) => typeof scope !== "string")) throw new InvalidRequest("scopes must be a list of scope names")
  return [...new Set((list as string[]).filter(Boolean))]
}

function expiryOf(settings: ResolvedApiKeys, input: NewKeyInput, now: number): Date | null {
  const { expiresIn, expires } = input
  let date: Date | null = null
  if (expiresIn !== undefined && expiresIn !== null && expiresIn !== "") {
    const seconds = Number(expiresIn)
    if (!Number.isInteger(seconds) || seconds < 60) throw new InvalidRequest("expiresIn must be a whole number of seconds, at least 60")
    date = new Date(now + seconds * 1000)
  } else if (expires !== undefined && expires !== null && expires !== "") {
    date = typeof expires === "string" || expires instanceof Date ? new Date(expires) : new Date(Number.NaN)
    if (Number.isNaN(date.getTime()) || date.getTime() <= now) throw new InvalidRequest("expires must be a time in the future (ISO 8601)")
  }
  if (settings.maxAge === undefined) return date
  const latest = now + settings.maxAge * 1000
  // No expiry asked for: the longest allowed. More than allowed: refused (never silently shortened).
  if (date === null) return new Date(latest)
  if (date.getTime() > latest + 1000) throw new InvalidRequest(`A key may live at most ${settings.maxAge} seconds (apiKeys.maxAge)`)
  return date
}

/** The scopes an organization's key may hold for this actor (server code: every declared permission). */
async function organizationScopes(config: ResolvedConfig, organizationId: unknown, actor: Actor): Promise<{ organizationId: string; allowed: ReadonlySet<string> }> {
  const organizations = config.organizations
  if (!organizations) throw new ApiKeysUnavailable("Organization keys need the organizations option")
  const place = await standing(config, organizationId, actor)
  demand(place, "organization:update")
  return { organizationId: place.organization.id, allowed: place.grant ? place.grant.set : new Set(organizations.book.universe) }
}

export async function createApiKey(config: ResolvedConfig, input: NewKeyInput, actor: Actor, ownerUserId?: string): Promise<CreatedApiKey> {
  const settings = settingsOf(config)
  const name = nameOf(input.name)
  const scopes = scopesOf(input.scopes)
  const now = Date.now()
  let userId: string | null = null
  let organizationId: string | null = null
  let allowed: ReadonlySet<string>
  if (input.organizationId !== undefined && input.organizationId !== null && input.organizationId !== "") {
    ;({ organizationId, allowed } = await organizationScopes(config, input.organizationId, actor))
  } else {
    if (!settings.userKeys) throw new ApiKeysUnavailable("Users cannot make keys of their own here (apiKeys.userKeys)")
    userId = actor?.userId ?? ownerUserId ?? null
    if (!userId) throw new InvalidRequest("A user's key needs its user")
    allowed = settings.scopes
  }
  const refused = scopes.filter((scope) => !allowed.has(scope))
  if (refused.length) throw new InsufficientScope(`These scopes cannot be given to this key: ${refused.join(", ")}`)
  const key = newKey(settings.prefix)
  const record: AdapterApiKey = {
    id: randomUUID(),
    keyHash: keyHash(key),
    start: keyStart(key, settings.prefix),
    name,
    userId,
    organizationId,
    createdBy: actor?.userId ?? null,
    scopes,
    createdAt: new Date(now),
    expires: expiryOf(settings, input, now),
    lastUsedAt: null,
  }
  const stored = await storageOf(config).createApiKey(record)
  await fireEvent(config, "apiKey", { type: "api_key.created", keyId: stored.id, userId, organizationId, actorId: actor?.userId ?? null, name, scopes })
  return { key, apiKey: viewOf(stored) }
}

/** The actor's own keys, or (`organizationId`) an organization's, for a member who may manage them. */
export async function listApiKeys(config: ResolvedConfig, owner: { organizationId?: unknown }, actor: Actor, ownerUserId?: string): Promise<ApiKeyView[]> {
  const storage = storageOf(config)
  if (owner.organizationId !== undefined && owner.organizationId !== null && owner.organizationId !== "") {
    const { organizationId } = await organizationScopes(config, owner.organizationId, actor)
    return (await storage.listApiKeys({ organizationId })).map(viewOf)
  }
  const userId = actor?.userId ?? ownerUserId
  if (!userId) throw new InvalidRequest("Listing a user's keys needs the user")
  return (await storage.listApiKeys({ userId })).map(viewOf)
}

/** Revokes a key of the actor's, or of an organization they manage; `ApiKeyNotFound` for any other id. */
export async function revokeApiKey(config: ResolvedConfig, id: unknown, actor: Actor): Promise<ApiKeyView> {
  const storage = storageOf(config)
  if (typeof id !== "string" || !id || id.length > 200) throw new ApiKeyNotFound("The request names no key (keyId)")
  const key = await storage.getApiKey(id)
  if (!key) throw new ApiKeyNotFound("No key of yours has this id")
  if (actor) {
    if (key.userId !== null && key.userId !== actor.userId) throw new ApiKeyNotFound("No key of yours has this id")
    if (key.organizationId !== null) {
      try {
        await organizationScopes(config, key.organizationId, actor)
      } catch {
        throw new ApiKeyNotFound("No key of yours has this id")
      }
    }
  }
  const deleted = await storage.deleteApiKey(key.id)
  if (!deleted) throw new ApiKeyNotFound("The key was revoked already")
  await announceRevokedKey(config, deleted.keyHash)
  await fireEvent(config, "apiKey", { type: "api_key.revoked", keyId: deleted.id, userId: deleted.userId, organizationId: deleted.organizationId, actorId: actor?.userId ?? null })
  return viewOf(deleted)
}
