/**
 * The rules of managing an organization's SCIM provisioning (issue #29), shared by the
 * organization page's forms (actions/admin.ts) and the server helpers (helpers.ts): its tokens
 * (made here, shown once, stored only as their SHA-256) and the role each of its directory's groups
 * maps to. The actor needs `organization:update` in that organization (`null`: the app's server
 * code); a token or group of another organization reads as not there. Each token change is audited.
 */
import { randomBytes, randomUUID } from "node:crypto"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { Adapter } from "../adapters.js"
import { InvalidRequest, UnknownAction } from "../errors.js"
import { audit } from "../audit/emit.js"
import { demand, mayHandOut, roleIn, standing, type Actor, type Standing } from "../organizations/access.js"
import type { AdapterScimGroup, AdapterScimToken, SCIM_ADAPTER_METHODS } from "./adapter.js"
import { hashScimToken } from "./auth.js"
import { applyGroupRoles } from "./roles.js"

export type ScimStorage = Required<Pick<Adapter, (typeof SCIM_ADAPTER_METHODS)[number]>>

/** What every token starts with, so a leaked one is recognisable (secret scanners, logs). */
export const SCIM_TOKEN_PREFIX = "scim_"

/** The longest token name (what the admin calls it: "Okta"). */
const NAME_MAX = 100

/** The adapter's SCIM methods (checked at start-up); off: no such action. */
export function scimStorage(config: ResolvedConfig): ScimStorage {
  if (!config.scim) throw new UnknownAction("SCIM provisioning is off: set the scim option")
  return config.adapter as ScimStorage
}

/** A new token: the prefix and 32 random bytes (base64url). */
export function newScimToken(): string {
  return `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`
}

/** The SCIM base URL of an organization, to paste into the directory. */
export function scimEndpoint(baseUrl: string, organizationId: string): string {
  return `${baseUrl}/scim/v2/${encodeURIComponent(organizationId)}`
}

/** A token as its admins see it: never the token, never its hash. */
export interface ScimTokenView {
  id: string
  name: string
  createdAt: Date
  lastUsedAt: Date | null
}

export function tokenView(token: AdapterScimToken): ScimTokenView {
  return { id: token.id, name: token.name, createdAt: token.createdAt, lastUsedAt: token.lastUsedAt }
}

/** The organization, with the actor allowed to change it. */
async function manageable(config: ResolvedConfig, organizationId: unknown, actor: Actor): Promise<Standing> {
  scimStorage(config)
  const place = await standing(config, organizationId, actor)
  demand(place, "organization:update")
  return place
}

function tokenName(name: unknown): string {
  const trimmed = typeof name === "string" ? name.trim() : ""
  if (!trimmed) throw new InvalidRequest("The token needs a name (name), such as the directory's: Okta")
  if (trimmed.length > NAME_MAX) throw new InvalidRequest(`A token's name is at most ${NAME_MAX} characters`)
  return trimmed
}

/** Makes a token for the organization: the token itself (to show once) and what was stored. */
export async function createToken(config: ResolvedConfig, organizationId: unknown, name: unknown, actor: Actor): Promise<{ token: string; record: AdapterScimToken }> {
  const place = await manageable(config, organizationId, actor)
  const label = tokenName(name)
  const token = newScimToken()
  const record = await scimStorage(config).createScimToken({
    id: randomUUID(),
    organizationId: place.organization.id,
    name: label,
    tokenHash: hashScimToken(token), // what auth.ts looks a presented token up by
    createdAt: new Date(),
    lastUsedAt: null,
  })
  audit(config, { type: "scim.token_created", userId: actor?.userId, organizationId: record.organizationId, tokenId: record.id })
  return { token, record }
}

/** The organization's tokens, oldest first (no hashes). */
export async function listTokens(config: ResolvedConfig, organizationId: unknown, actor: Actor): Promise<ScimTokenView[]> {
  const place = await manageable(config, organizationId, actor)
  return (await scimStorage(config).listScimTokens(place.organization.id)).map(tokenView)
}

/** Deletes token `tokenId` of the organization; another organization's (or none) is InvalidRequest, nothing deleted. */
export async function revokeToken(config: ResolvedConfig, organizationId: unknown, tokenId: unknown, actor: Actor): Promise<ScimTokenView> {
  const place = await manageable(config, organizationId, actor)
  const storage = scimStorage(config)
  const token = typeof tokenId === "string" && tokenId ? (await storage.listScimTokens(place.organization.id)).find((candidate) => candidate.id === tokenId) : undefined
  if (!token) throw new InvalidRequest("No such SCIM token in this organization")
  await storage.deleteScimToken(token.id)
  audit(config, { type: "scim.token_revoked", userId: actor?.userId, organizationId: token.organizationId, tokenId: token.id })
  return tokenView(token)
}

/** A group as its admins see it. */
export interface ScimGroupView {
  id: string
  displayName: string
  externalId: string | null
  /** How many members the directory put in it. */
  memberCount: number
  role: string | null
}

export function groupView(group: AdapterScimGroup): ScimGroupView {
  return { id: group.id, displayName: group.displayName, externalId: group.externalId, memberCount: group.members.length, role: group.role }
}

/** The organization's directory groups, oldest first. */
export async function listGroups(config: ResolvedConfig, organizationId: unknown, actor: Actor): Promise<ScimGroupView[]> {
  const place = await manageable(config, organizationId, actor)
  return (await scimStorage(config).listScimGroups(place.organization.id)).map(groupView)
}

/**
 * Sets the role the members of group `groupId` get (`""`, null or undefined: none), then brings
 * its members' roles in line (roles.ts: the oldest group with a role wins, else the default role;
 * owners untouched). A role of the organization that the actor may
 * hand out; never `owner` (owners are never made or changed by a directory).
 */
export async function setGroupRole(config: ResolvedConfig, organizationId: unknown, groupId: unknown, role: unknown, actor: Actor): Promise<ScimGroupView> {
  const place = await manageable(config, organizationId, actor)
  const storage = scimStorage(config)
  const organization = place.organization.id
  const group = typeof groupId === "string" && groupId && groupId.length <= 200 ? await storage.getScimGroup(organization, groupId) : null
  if (!group) throw new InvalidRequest("No such directory group in this organization")
  let next: string | null = null
  if (role !== undefined && role !== null && role !== "") {
    if (role === "owner") throw new InvalidRequest("A directory group never makes owners: owners are never changed by SCIM")
    const grant = roleIn(config, place.organization, role)
    mayHandOut(place, grant)
    next = grant.role
  }
  const updated = await storage.updateScimGroup(organization, group.id, { role: next, updatedAt: new Date() })
  if (!updated || updated === "uniqueness") throw new InvalidRequest("No such directory group in this organization")
  if (group.role !== next) {
    await applyGroupRoles(config, place.organization, updated.members)
    audit(config, { type: "scim.group_changed", userId: actor?.userId, organizationId: organization, groupId: updated.id, change: "role", role: next })
  }
  return groupView(updated)
}
