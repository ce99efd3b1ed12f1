/**
 * The memory adapter's SCIM provisioning methods (issue #29): tokens by id, provisioned users
 * keyed by (organization, user), groups by id. Every method checks and writes without awaiting in
 * between, so the uniqueness rules (a token hash; within an organization a userName key, an
 * externalId, a group's displayName, case-insensitive) hold under concurrency as they would in a
 * database. Records are copied in and out: callers never hold the stored objects (attributes and
 * members deep-copied).
 */
import type { Adapter, AdapterScimGroup, AdapterScimToken, AdapterScimUser, AdapterUser } from "../../lib/adapters.js"
import { SCIM_UNIQUENESS } from "../../lib/scim/adapter.js"
import type { SCIM_ADAPTER_METHODS } from "../../lib/scim/adapter.js"

export interface ScimMaps {
  scimTokens: Map<string, AdapterScimToken>
  /** `[organizationId, userId]` as JSON -> the provisioned user. */
  scimUsers: Map<string, AdapterScimUser>
  scimGroups: Map<string, AdapterScimGroup>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type ScimMethods = Required<Pick<Adapter, (typeof SCIM_ADAPTER_METHODS)[number]>>

const userKey = (organizationId: string, userId: string) => JSON.stringify([organizationId, userId])
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T
const byAge = (a: { createdAt: Date }, b: { createdAt: Date }) => a.createdAt.getTime() - b.createdAt.getTime()
/** What a group's displayName is compared by (the SQL and MongoDB adapters store it as `display_name_key`). */
const displayNameKey = (displayName: string) => displayName.toLowerCase()

function tokenCopy(token: AdapterScimToken): AdapterScimToken {
  return {
    id: token.id,
    organizationId: token.organizationId,
    name: token.name,
    tokenHash: token.tokenHash,
    createdAt: new Date(token.createdAt.getTime()),
    lastUsedAt: token.lastUsedAt ? new Date(token.lastUsedAt.getTime()) : null,
  }
}

function userCopy(user: AdapterScimUser): AdapterScimUser {
  return {
    organizationId: user.organizationId,
    userId: user.userId,
    userName: user.userName,
    userNameKey: user.userNameKey,
    externalId: user.externalId ?? null,
    active: user.active,
    suspendedRole: user.suspendedRole ?? null,
    attributes: json(user.attributes),
    createdAt: new Date(user.createdAt.getTime()),
    updatedAt: new Date(user.updatedAt.getTime()),
  }
}

function groupCopy(group: AdapterScimGroup): AdapterScimGroup {
  return {
    id: group.id,
    organizationId: group.organizationId,
    displayName: group.displayName,
    externalId: group.externalId ?? null,
    members: [...group.members],
    role: group.role ?? null,
    createdAt: new Date(group.createdAt.getTime()),
    updatedAt: new Date(group.updatedAt.getTime()),
  }
}

/** Removes `userId` from the members of the groups (of one organization, or of every one). */
function pullMember(maps: ScimMaps, put: Put, userId: string, organizationId?: string): void {
  for (const [id, group] of maps.scimGroups) {
    if (organizationId !== undefined && group.organizationId !== organizationId) continue
    if (group.members.includes(userId)) put(maps.scimGroups, id, { ...group, members: group.members.filter((member) => member !== userId) })
  }
}

/** Removes the organization's tokens, provisioned users and groups (deleteOrganization). */
export function forgetOrganizationScim(maps: ScimMaps, remove: Remove, organizationId: string): void {
  for (const [key, token] of maps.scimTokens) if (token.organizationId === organizationId) remove(maps.scimTokens, key)
  for (const [key, user] of maps.scimUsers) if (user.organizationId === organizationId) remove(maps.scimUsers, key)
  for (const [key, group] of maps.scimGroups) if (group.organizationId === organizationId) remove(maps.scimGroups, key)
}

/** Removes the user's provisioned records and takes them out of every group (deleteUser). */
export function forgetScimUser(maps: ScimMaps, put: Put, remove: Remove, userId: string): void {
  for (const [key, user] of maps.scimUsers) if (user.userId === userId) remove(maps.scimUsers, key)
  pullMember(maps, put, userId)
}

export function scimMethods(maps: ScimMaps & { organizations: Map<string, unknown>; users: Map<string, AdapterUser> }, put: Put, remove: Remove): ScimMethods {
  /** Whether another provisioned user of the organization than `userId` has this userName key or externalId. */
  const userTaken = (organizationId: string, userId: string, userNameKey: string | undefined, externalId: string | null | undefined) =>
    [...maps.scimUsers.values()].some(
      (other) =>
        other.organizationId === organizationId &&
        other.userId !== userId &&
        ((userNameKey !== undefined && other.userNameKey === userNameKey) || (externalId !== undefined && externalId !== null && other.externalId === externalId)),
    )
  /** Whether another group of the organization than `id` has this displayName (case-insensitive). */
  const groupTaken = (organizationId: string, id: string, displayName: string) =>
    [...maps.scimGroups.values()].some((other) => other.organizationId === organizationId && other.id !== id && displayNameKey(other.displayName) === displayNameKey(displayName))
  const ownGroup = (organizationId: string, id: string) => {
    const found = maps.scimGroups.get(id)
    return found && found.organizationId === organizationId ? found : undefined
  }

  return {
    async createScimToken(token) {
      if (maps.scimTokens.has(token.id)) throw new Error(`a SCIM token with id ${token.id} exists`)
      if ([...maps.scimTokens.values()].some((other) => other.tokenHash === token.tokenHash)) throw new Error("a SCIM token with this hash exists")
      if (!maps.organizations.has(token.organizationId)) throw new Error(`no organization with id ${token.organizationId}`)
      put(maps.scimTokens, token.id, tokenCopy(token))
      return tokenCopy(token)
    },
    async getScimTokenByHash(tokenHash) {
      const found = [...maps.scimTokens.values()].find((token) => token.tokenHash === tokenHash)
      return found ? tokenCopy(found) : null
    },
    async listScimTokens(organizationId) {
      return [...maps.scimTokens.values()].filter((token) => token.organizationId === organizationId).sort(byAge).map(tokenCopy)
    },
    async touchScimToken(id, lastUsedAt) {
      const current = maps.scimTokens.get(id)
      if (current) put(maps.scimTokens, id, tokenCopy({ ...current, lastUsedAt }))
    },
    async deleteScimToken(id) {
      remove(maps.scimTokens, id)
    },

    async createScimUser(user) {
      const key = userKey(user.organizationId, user.userId)
      // The same Gatehouse user provisioned twice in one organization is a conflict too.
      if (maps.scimUsers.has(key) || userTaken(user.organizationId, user.userId, user.userNameKey, user.externalId)) return SCIM_UNIQUENESS
      if (!maps.organizations.has(user.organizationId)) throw new Error(`no organization with id ${user.organizationId}`)
      if (!maps.users.has(user.userId)) throw new Error(`no user with id ${user.userId}`)
      put(maps.scimUsers, key, userCopy(user))
      return userCopy(user)
    },
    async getScimUser(organizationId, userId) {
      const found = maps.scimUsers.get(userKey(organizationId, userId))
      return found ? userCopy(found) : null
    },
    async listScimUsers(organizationId) {
      return [...maps.scimUsers.values()].filter((user) => user.organizationId === organizationId).sort(byAge).map(userCopy)
    },
    async updateScimUser(organizationId, userId, changes) {
      const key = userKey(organizationId, userId)
      const current = maps.scimUsers.get(key)
      if (!current) return null
      if (userTaken(organizationId, userId, changes.userNameKey, changes.externalId)) return SCIM_UNIQUENESS
      const next: AdapterScimUser = { ...current }
      if (changes.userName !== undefined) next.userName = changes.userName
      if (changes.userNameKey !== undefined) next.userNameKey = changes.userNameKey
      if (changes.externalId !== undefined) next.externalId = changes.externalId
      if (changes.active !== undefined) next.active = changes.active
      if (changes.suspendedRole !== undefined) next.suspendedRole = changes.suspendedRole
      if (changes.attributes !== undefined) next.attributes = changes.attributes
      if (changes.updatedAt !== undefined) next.updatedAt = changes.updatedAt
      put(maps.scimUsers, key, userCopy(next))
      return userCopy(next)
    },
    async deleteScimUser(organizationId, userId) {
      remove(maps.scimUsers, userKey(organizationId, userId))
      pullMember(maps, put, userId, organizationId)
    },

    async createScimGroup(group) {
      if (groupTaken(group.organizationId, group.id, group.displayName)) return SCIM_UNIQUENESS
      if (maps.scimGroups.has(group.id)) throw new Error(`a SCIM group with id ${group.id} exists`)
      if (!maps.organizations.has(group.organizationId)) throw new Error(`no organization with id ${group.organizationId}`)
      put(maps.scimGroups, group.id, groupCopy(group))
      return groupCopy(group)
    },
    async getScimGroup(organizationId, id) {
      const found = ownGroup(organizationId, id)
      return found ? groupCopy(found) : null
    },
    async listScimGroups(organizationId) {
      return [...maps.scimGroups.values()].filter((group) => group.organizationId === organizationId).sort(byAge).map(groupCopy)
    },
    async updateScimGroup(organizationId, id, changes) {
      const current = ownGroup(organizationId, id)
      if (!current) return null
      if (changes.displayName !== undefined && groupTaken(organizationId, id, changes.displayName)) return SCIM_UNIQUENESS
      const next: AdapterScimGroup = { ...current }
      if (changes.displayName !== undefined) next.displayName = changes.displayName
      if (changes.externalId !== undefined) next.externalId = changes.externalId
      if (changes.members !== undefined) next.members = changes.members
      if (changes.role !== undefined) next.role = changes.role
      if (changes.updatedAt !== undefined) next.updatedAt = changes.updatedAt
      put(maps.scimGroups, id, groupCopy(next))
      return groupCopy(next)
    },
    async deleteScimGroup(organizationId, id) {
      if (ownGroup(organizationId, id)) remove(maps.scimGroups, id)
    },
  }
}
