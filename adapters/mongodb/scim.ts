/**
 * The MongoDB adapter's SCIM provisioning methods (issue #29): one document per token in
 * `scim_tokens` (`_id` the token id), one per provisioned user in `scim_users` (`organizationId`,
 * and `userId` an ObjectId like the other collections'; the attributes kept as JSON text, since
 * SCIM's names such as `urn:...:enterprise:2.0:User` or `$ref` cannot all be field names), one per
 * group in `scim_groups` (`_id` the group id, `members` the user ids as strings, in order).
 * Deleting an organization removes all three (organizations.ts); deleting a user, its provisioned
 * records and its places in groups (adapter.ts).
 *
 * The uniqueness rules are the unique indexes of `setupIndexes`: within an organization a
 * userName key, an externalId (partial: only string ones) and a group's displayName key. Each
 * write checks first, and a write the index refuses all the same (a concurrent one took the
 * value) changed nothing: both answer `"uniqueness"`.
 */
import type { ClientSession, Collection, Document } from "mongodb"
import type { Adapter, AdapterScimGroup, AdapterScimToken, AdapterScimUser } from "../../lib/adapters.js"
import { SCIM_UNIQUENESS } from "../../lib/scim/adapter.js"
import type { Handles } from "./collections.js"
import { isObjectIdHex, key, toObjectId } from "./convert.js"
import type { SCIM_ADAPTER_METHODS } from "../../lib/scim/adapter.js"

type ScimMethods = Required<Pick<Adapter, (typeof SCIM_ADAPTER_METHODS)[number]>>
type Options = { session?: ClientSession }
type Atomically = <T>(work: (options: Options) => Promise<T>) => Promise<T>

/** The server's duplicate key error (a unique index refused the write). */
function isDuplicateKey(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === 11000
}

const fromJson = <T>(value: unknown): T => JSON.parse(String(value)) as T
/** What a group's displayName is compared by (`displayNameKey`). */
const displayNameKey = (displayName: string) => displayName.toLowerCase()
const optionalString = (value: unknown): string | null => (typeof value === "string" ? value : null)

function toToken(document: Document): AdapterScimToken {
  return {
    id: String(document._id),
    organizationId: String(document.organizationId),
    name: String(document.name),
    tokenHash: String(document.tokenHash),
    createdAt: new Date(document.createdAt as Date),
    lastUsedAt: document.lastUsedAt ? new Date(document.lastUsedAt as Date) : null,
  }
}

function toUser(document: Document): AdapterScimUser {
  const userId = document.userId as { toHexString?: () => string }
  return {
    organizationId: String(document.organizationId),
    userId: typeof userId?.toHexString === "function" ? userId.toHexString() : String(userId),
    userName: String(document.userName),
    userNameKey: String(document.userNameKey),
    externalId: optionalString(document.externalId),
    active: document.active === true,
    suspendedRole: optionalString(document.suspendedRole),
    attributes: fromJson(document.attributes),
    createdAt: new Date(document.createdAt as Date),
    updatedAt: new Date(document.updatedAt as Date),
  }
}

function toGroup(document: Document): AdapterScimGroup {
  return {
    id: String(document._id),
    organizationId: String(document.organizationId),
    displayName: String(document.displayName),
    externalId: optionalString(document.externalId),
    members: (document.members as unknown[]).map(String),
    role: optionalString(document.role),
    createdAt: new Date(document.createdAt as Date),
    updatedAt: new Date(document.updatedAt as Date),
  }
}

/** `externalId` checked to be a string or null (never an operator object in a filter). */
const externalIdValue = (value: string | null | undefined) => (value === undefined || value === null ? null : key(value, "externalId"))
const membersValue = (members: string[]) => members.map((member) => key(member, "members"))

/**
 * Takes `userId` out of the member lists of the groups (of one organization, or of every one),
 * each in one atomic update. (The cast: the driver's types know no array field of a collection
 * typed as plain documents.)
 */
export async function pullScimMember(groups: Collection, userId: string, options: Options, organizationId?: string): Promise<void> {
  const filter: Document = { members: key(userId, "userId") }
  if (organizationId !== undefined) filter.organizationId = key(organizationId, "organizationId")
  await (groups as unknown as Collection<{ members: string[] }>).updateMany(filter, { $pull: { members: userId } }, options)
}

export function scimMethods(handles: () => Promise<Handles>, opts: Options, atomically: Atomically): ScimMethods {
  const org = (organizationId: string) => key(organizationId, "organizationId")
  /** The filter of a provisioned user; null when `userId` cannot be a user's id (then there is none). */
  const userFilter = (organizationId: string, userId: string) => (isObjectIdHex(key(userId, "userId")) ? { organizationId: org(organizationId), userId: toObjectId(userId) } : null)
  const groupFilter = (organizationId: string, id: string) => ({ _id: key(id, "id") as never, organizationId: org(organizationId) })
  /** Whether another provisioned user of the organization has this userName key or (string) externalId. */
  const userTaken = async (organizationId: string, userId: string, userNameKey: string | undefined, externalId: string | null | undefined) => {
    const or: Document[] = []
    if (userNameKey !== undefined) or.push({ userNameKey: key(userNameKey, "userNameKey") })
    if (typeof externalId === "string") or.push({ externalId: key(externalId, "externalId") })
    if (!or.length) return false
    const filter = { organizationId: org(organizationId), userId: { $ne: toObjectId(userId) }, $or: or }
    return (await (await handles()).scimUsers.findOne(filter, { ...opts, projection: { _id: 1 } })) !== null
  }
  const groupTaken = async (organizationId: string, id: string, displayName: string) => {
    const filter = { organizationId: org(organizationId), displayNameKey: displayNameKey(displayName), _id: { $ne: key(id, "id") as never } }
    return (await (await handles()).scimGroups.findOne(filter, { ...opts, projection: { _id: 1 } })) !== null
  }
  /** A write a unique index may refuse: `"uniqueness"` then (inside a transaction the error aborts it: the caller's to handle). */
  const unlessTaken = async <T>(write: () => Promise<T>): Promise<T | typeof SCIM_UNIQUENESS> => {
    try {
      return await write()
    } catch (error) {
      if (isDuplicateKey(error) && !opts.session) return SCIM_UNIQUENESS
      throw error
    }
  }

  return {
    async createScimToken(token) {
      const document = {
        _id: key(token.id, "id") as never,
        organizationId: org(token.organizationId),
        name: token.name,
        tokenHash: key(token.tokenHash, "tokenHash"),
        createdAt: token.createdAt,
        lastUsedAt: token.lastUsedAt ?? null,
      }
      await (await handles()).scimTokens.insertOne(document, opts)
      return toToken(document)
    },
    async getScimTokenByHash(tokenHash) {
      const found = await (await handles()).scimTokens.findOne({ tokenHash: key(tokenHash, "tokenHash") }, opts)
      return found ? toToken(found) : null
    },
    async listScimTokens(organizationId) {
      const found = await (await handles()).scimTokens.find({ organizationId: org(organizationId) }, opts).sort({ createdAt: 1, _id: 1 }).toArray()
      return found.map(toToken)
    },
    async touchScimToken(id, lastUsedAt) {
      await (await handles()).scimTokens.updateOne({ _id: key(id, "id") as never }, { $set: { lastUsedAt } }, opts)
    },
    async deleteScimToken(id) {
      await (await handles()).scimTokens.deleteOne({ _id: key(id, "id") as never }, opts)
    },

    async createScimUser(user) {
      const filter = userFilter(user.organizationId, user.userId)
      if (!filter) throw new TypeError(`MongoDBAdapter: ${JSON.stringify(user.userId)} is not a MongoDB ObjectId id (24 lowercase hex characters)`)
      const { users, scimUsers } = await handles()
      if (await scimUsers.findOne(filter, { ...opts, projection: { _id: 1 } })) return SCIM_UNIQUENESS
      if (await userTaken(user.organizationId, user.userId, user.userNameKey, user.externalId)) return SCIM_UNIQUENESS
      if (!(await users.findOne({ _id: filter.userId }, { ...opts, projection: { _id: 1 } }))) throw new Error(`no user with id ${user.userId}`)
      const document = {
        ...filter,
        userName: user.userName,
        userNameKey: key(user.userNameKey, "userNameKey"),
        externalId: externalIdValue(user.externalId),
        active: user.active,
        suspendedRole: user.suspendedRole ?? null,
        attributes: JSON.stringify(user.attributes),
        createdAt: user.createdAt,
        updatedAt: user.updatedAt,
      }
      return unlessTaken(async () => {
        await scimUsers.insertOne(document, opts)
        return toUser(document)
      })
    },
    async getScimUser(organizationId, userId) {
      const filter = userFilter(organizationId, userId)
      const found = filter && (await (await handles()).scimUsers.findOne(filter, opts))
      return found ? toUser(found) : null
    },
    async listScimUsers(organizationId) {
      const found = await (await handles()).scimUsers.find({ organizationId: org(organizationId) }, opts).sort({ createdAt: 1, userId: 1 }).toArray()
      return found.map(toUser)
    },
    async updateScimUser(organizationId, userId, changes) {
      const filter = userFilter(organizationId, userId)
      if (!filter) return null
      const { scimUsers } = await handles()
      const current = await scimUsers.findOne(filter, opts)
      if (!current) return null
      if (await userTaken(organizationId, userId, changes.userNameKey, changes.externalId)) return SCIM_UNIQUENESS
      const $set: Record<string, unknown> = {}
      if (changes.userName !== undefined) $set.userName = changes.userName
      if (changes.userNameKey !== undefined) $set.userNameKey = key(changes.userNameKey, "userNameKey")
      if (changes.externalId !== undefined) $set.externalId = externalIdValue(changes.externalId)
      if (changes.active !== undefined) $set.active = changes.active
      if (changes.suspendedRole !== undefined) $set.suspendedRole = changes.suspendedRole
      if (changes.attributes !== undefined) $set.attributes = JSON.stringify(changes.attributes)
      if (changes.updatedAt !== undefined) $set.updatedAt = changes.updatedAt
      if (!Object.keys($set).length) return toUser(current)
      return unlessTaken(async () => {
        const updated = await scimUsers.findOneAndUpdate(filter, { $set }, { ...opts, returnDocument: "after" })
        return updated ? toUser(updated) : null
      })
    },
    async deleteScimUser(organizationId, userId) {
      const filter = userFilter(organizationId, userId)
      if (!filter) return
      const { scimUsers, scimGroups } = await handles()
      // One after the other (operations of a transaction must not run in parallel).
      await atomically(async (options) => {
        await scimUsers.deleteOne(filter, options)
        await pullScimMember(scimGroups, userId, options, filter.organizationId)
      })
    },

    async createScimGroup(group) {
      const { scimGroups } = await handles()
      if (await groupTaken(group.organizationId, group.id, group.displayName)) return SCIM_UNIQUENESS
      const document = {
        ...groupFilter(group.organizationId, group.id),
        displayName: group.displayName,
        displayNameKey: displayNameKey(group.displayName),
        externalId: externalIdValue(group.externalId),
        members: membersValue(group.members),
        role: group.role ?? null,
        createdAt: group.createdAt,
        updatedAt: group.updatedAt,
      }
      return unlessTaken(async () => {
        await scimGroups.insertOne(document, opts)
        return toGroup(document)
      })
    },
    async getScimGroup(organizationId, id) {
      const found = await (await handles()).scimGroups.findOne(groupFilter(organizationId, id), opts)
      return found ? toGroup(found) : null
    },
    async listScimGroups(organizationId) {
      const found = await (await handles()).scimGroups.find({ organizationId: org(organizationId) }, opts).sort({ createdAt: 1, _id: 1 }).toArray()
      return found.map(toGroup)
    },
    async updateScimGroup(organizationId, id, changes) {
      const { scimGroups } = await handles()
      const filter = groupFilter(organizationId, id)
      const current = await scimGroups.findOne(filter, opts)
      if (!current) return null
      const $set: Record<string, unknown> = {}
      if (changes.displayName !== undefined) {
        if (await groupTaken(organizationId, id, changes.displayName)) return SCIM_UNIQUENESS
        $set.displayName = changes.displayName
        $set.displayNameKey = displayNameKey(changes.displayName)
      }
      if (changes.externalId !== undefined) $set.externalId = externalIdValue(changes.externalId)
      if (changes.members !== undefined) $set.members = membersValue(changes.members)
      if (changes.role !== undefined) $set.role = changes.role
      if (changes.updatedAt !== undefined) $set.updatedAt = changes.updatedAt
      if (!Object.keys($set).length) return toGroup(current)
      return unlessTaken(async () => {
        const updated = await scimGroups.findOneAndUpdate(filter, { $set }, { ...opts, returnDocument: "after" })
        return updated ? toGroup(updated) : null
      })
    },
    async deleteScimGroup(organizationId, id) {
      await (await handles()).scimGroups.deleteOne(groupFilter(organizationId, id), opts)
    },
  }
}
