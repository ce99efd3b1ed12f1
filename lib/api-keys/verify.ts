/**
 * Checking a presented API key (issue #31). A key that is not one of this app's shape (prefix,
 * length, alphabet, checksum) is refused at once; any other is looked up by its SHA-256, never by
 * a part of it, so an unknown key and a known prefix with a wrong secret take the same path. The
 * answer comes from this process's cache (cache.ts) when fresh: a hash and a Map lookup, without
 * a promise. Refused: `ApiKeyInvalid` (malformed, unknown, revoked, owner gone), `ApiKeyExpired`,
 * `UserBanned` (the owner is banned, issue #30).
 */
import type { Adapter } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { RequestContext } from "../core/context.js"
import { activeBan } from "../admin/bans.js"
import { UserBanned } from "../admin/errors.js"
import type { ApiKeyCaller } from "./caller.js"
import { apiKeyCache, type Found } from "./cache.js"
import { ApiKeyExpired, ApiKeyInvalid } from "./errors.js"
import { keyHash, wellFormed } from "./format.js"
import { noteUse } from "./usage.js"
import type { ResolvedApiKeys } from "./settings.js"

/** Longer than any key: a header this long is refused before anything is computed from it. */
const MAX_PRESENTED = 256

/**
 * The key a request presents: `Authorization: Bearer <key>`, else the configured header; undefined
 * when it presents none (another Authorization scheme, such as Basic, is not a key). A Bearer
 * value that is no single token, or anything too long to be a key, is presented as "" (refused as
 * malformed, never read further).
 */
export function presentedKey(settings: ResolvedApiKeys, header: (name: string) => string | undefined): string | undefined {
  const authorization = header("authorization")
  if (authorization !== undefined && /^bearer(?:[ \t]|$)/i.test(authorization)) {
    if (authorization.length > MAX_PRESENTED) return ""
    return /^bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1] ?? ""
  }
  if (!settings.header) return undefined
  const value = header(settings.header)
  if (value === undefined) return undefined
  return value.length > MAX_PRESENTED ? "" : value.trim()
}

function refused(found: Exclude<Found, { caller: ApiKeyCaller }>): never {
  if (found.refusal === "UserBanned") throw new UserBanned("The key's owner is banned")
  throw new ApiKeyInvalid("The API key is unknown or revoked")
}

async function load(config: ResolvedConfig, hash: string): Promise<Found> {
  const adapter = config.adapter as Required<Pick<Adapter, "getApiKeyByHash" | "getUser">> & Adapter
  const key = await adapter.getApiKeyByHash(hash)
  if (!key) return { refusal: "ApiKeyInvalid" }
  if (key.userId !== null) {
    const user = await adapter.getUser(key.userId)
    if (!user) return { refusal: "ApiKeyInvalid" }
    if (config.admin && (await activeBan(config, user.id))) return { refusal: "UserBanned" }
    return { caller: { key, user, organization: null, scopes: new Set(key.scopes) } }
  }
  if (key.organizationId === null || !config.organizations || !adapter.getOrganization) return { refusal: "ApiKeyInvalid" }
  const organization = await adapter.getOrganization(key.organizationId)
  if (!organization) return { refusal: "ApiKeyInvalid" }
  return { caller: { key, user: null, organization: { id: organization.id, slug: organization.slug, name: organization.name }, scopes: new Set(key.scopes) } }
}

function accept(config: ResolvedConfig, found: Found, now: number): ApiKeyCaller {
  if (!("caller" in found)) refused(found)
  const { caller } = found
  if (caller.key.expires !== null && caller.key.expires.getTime() <= now) throw new ApiKeyExpired("The API key has expired")
  noteUse(config, caller, now)
  return caller
}

/** The caller behind `presented`; without a promise when this process knows the key. */
export function verifyApiKey(config: ResolvedConfig, settings: ResolvedApiKeys, presented: string): ApiKeyCaller | Promise<ApiKeyCaller> {
  if (!wellFormed(presented, settings.prefix, settings.length)) throw new ApiKeyInvalid("That is not an API key of this app")
  const hash = keyHash(presented)
  const now = Date.now()
  const cache = apiKeyCache(config)
  const cached = cache.get(hash, now)
  if (cached) return accept(config, cached, now)
  return load(config, hash).then((found) => {
    cache.set(hash, found, now)
    return accept(config, found, Date.now())
  })
}

/** For actions (`GET token`): the request's key, checked; null when it carries none (or keys are off). */
export async function verifyRequestKey(ctx: RequestContext): Promise<ApiKeyCaller | null> {
  const settings = ctx.config.apiKeys
  if (!settings) return null
  const presented = presentedKey(settings, (name) => ctx.request.header(name))
  if (presented === undefined) return null
  return verifyApiKey(ctx.config, settings, presented)
}
