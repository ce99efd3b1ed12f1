/**
 * The MongoDB adapter's organization methods (issue #27): one document per organization in
 * `organizations` (`_id` the organization id, a string Gatehouse made), one per membership in
 * `members` (`organizationId`, and `userId` an ObjectId like the other collections'), one per
 * pending invitation in `invitations` (`_id` the invitation id); deleting an organization also
 * removes its SSO connections and domains (sso.ts) and its SCIM records (scim.ts). The unique indexes of
 * `setupIndexes` decide the slug, the membership and the token hash.
 *
 * Never no owner: `updateMemberRole` and `removeMember` change the member, count the owners left
 * and undo the change when there are none. In a transaction (a replica set) they first write the
 * organization's document, so two of them for one organization conflict and the driver runs the
 * second again after the first (without that write, snapshot isolation would let two demotions
 * of the last two owners both pass). On a standalone server, without transactions, they take a
 * lease in the organization's document instead (a conditional update), so they run one after the
 * other; there other readers can briefly see a change that is then undone.
 */
// Over 300 lines: the last-owner rule needs both a transaction path (replica sets) and a lease path (a standalone server), kept side by side so they can be read against each other.
import { randomUUID } from "node:crypto"
import type { ClientSession, Document } from "mongodb"
import type { Adapter, AdapterInvitation, AdapterMember, AdapterOrganization } from "../../lib/adapters.js"
import { LAST_OWNER, SLUG_TAKEN } from "../../lib/organizations/adapter.js"
import type { Handles } from "./collections.js"
import { isObjectIdHex, key, toObjectId } from "./convert.js"
import type { ORGANIZATION_ADAPTER_METHODS } from "../../lib/organizations/adapter.js"

type OrganizationMethods = Required<Pick<Adapter, (typeof ORGANIZATION_ADAPTER_METHODS)[number]>>
type Options = { session?: ClientSession }
type Atomically = <T>(work: (options: Options) => Promise<T>) => Promise<T>

const OWNER = "owner"
/** How long a standalone server's member-change lease holds if its holder never gives it back (a crash). */
const LEASE_MS = 10_000

/** The server's duplicate key error (a unique index refused the write). */
function isDuplicateKey(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === 11000
}

function toOrganization(document: Document): AdapterOrganization {
  return {
    id: String(document._id),
    slug: String(document.slug),
    name: String(document.name),
    logo: (document.logo as string | null | undefined) ?? null,
    metadata: (document.metadata as AdapterOrganization["metadata"]) ?? null,
    roles: (document.roles as AdapterOrganization["roles"]) ?? null,
    createdAt: new Date(document.createdAt as Date),
  }
}

function toMember(document: Document): AdapterMember {
  const userId = document.userId as { toHexString?: () => string }
  return {
    organizationId: String(document.organizationId),
    userId: typeof userId?.toHexString === "function" ? userId.toHexString() : String(userId),
    role: String(document.role),
    createdAt: new Date(document.createdAt as Date),
  }
}

function toInvitation(document: Document): AdapterInvitation {
  return {
    id: String(document._id),
    organizationId: String(document.organizationId),
    email: String(document.email),
    role: String(document.role),
    tokenHash: String(document.tokenHash),
    invitedBy: (document.invitedBy as string | null | undefined) ?? null,
    createdAt: new Date(document.createdAt as Date),
    expires: new Date(document.expires as Date),
  }
}

export function organizationMethods(handles: () => Promise<Handles>, opts: Options, atomically: Atomically): OrganizationMethods {
  const memberFilter = (organizationId: string, userId: string) => ({ organizationId: key(organizationId, "organizationId"), userId: toObjectId(userId) })
  const memberDocument = (member: AdapterMember) => ({ ...memberFilter(member.organizationId, member.userId), role: member.role, createdAt: member.createdAt })
  const userExists = async (userId: string, options: Options) => {
    const { users } = await handles()
    if (!(await users.findOne({ _id: toObjectId(userId) }, { ...options, projection: { _id: 1 } }))) throw new Error(`no user with id ${userId}`)
  }
  /**
   * Without transactions (a standalone server): holds the organization for `work` with a lease in
   * its document, taken by a conditional update (free, or its holder's lease run out) and given
   * back after. Member changes of one organization then run one after the other here too.
   */
  const leased = async <T>(organizationId: string, work: () => Promise<T>): Promise<T> => {
    const { organizations } = await handles()
    const holder = randomUUID()
    for (;;) {
      const now = new Date()
      const taken = await organizations.updateOne(
        { _id: organizationId as never, $or: [{ memberLease: { $exists: false } }, { memberLeaseUntil: { $lt: now } }] },
        { $set: { memberLease: holder, memberLeaseUntil: new Date(now.getTime() + LEASE_MS) } },
      )
      if (taken.matchedCount === 1) break
      // No such organization: nothing to hold (and no member to change).
      if (!(await organizations.findOne({ _id: organizationId as never }, { projection: { _id: 1 } }))) return work()
      await new Promise((resume) => setTimeout(resume, 5 + Math.random() * 20))
    }
    try {
      return await work()
    } finally {
      await organizations.updateOne({ _id: organizationId as never, memberLease: holder }, { $unset: { memberLease: "", memberLeaseUntil: "" } })
    }
  }
  /**
   * Runs a member change that must leave an owner: `change` makes it and says whether the member
   * was an owner who is no longer one; then the owners are counted, and when none is left `undo`
   * puts the member back and the answer is `"lastOwner"`.
   */
  const keepingAnOwner = async (
    organizationId: string,
    change: (options: Options) => Promise<{ member: AdapterMember; ownerLost: boolean } | null>,
    undo: (options: Options) => Promise<void>,
  ) => {
    const { organizations, members } = await handles()
    const run = async (options: Options) => {
      const changed = await change(options)
      if (!changed) return null
      if (!changed.ownerLost || (await members.countDocuments({ organizationId, role: OWNER }, options)) > 0) return changed.member
      await undo(options)
      return LAST_OWNER
    }
    return atomically(async (options) => {
      if (!options.session) return leased(organizationId, () => run(options))
      // A write to the organization's document: concurrent transactions of one organization conflict.
      await organizations.updateOne({ _id: organizationId as never }, { $inc: { memberChanges: 1 } }, options)
      return run(options)
    })
  }

  return {
    async createOrganization(organization, owner) {
      const { organizations, members } = await handles()
      const document = {
        _id: key(organization.id, "id") as never,
        slug: key(organization.slug, "slug"),
        name: organization.name,
        logo: organization.logo ?? null,
        metadata: organization.metadata ?? null,
        roles: organization.roles ?? null,
        createdAt: organization.createdAt,
      }
      try {
        return await atomically(async (options) => {
          if (await organizations.findOne({ slug: document.slug }, { ...options, projection: { _id: 1 } })) return SLUG_TAKEN
          await userExists(owner.userId, options)
          await organizations.insertOne(document, options)
          try {
            await members.insertOne(memberDocument({ ...owner, organizationId: organization.id }), options)
          } catch (error) {
            // Without a transaction: no organization is left without its owner.
            if (!options.session) await organizations.deleteOne({ _id: document._id }).catch(() => undefined)
            throw error
          }
          return toOrganization(document)
        })
      } catch (error) {
        // The slug was taken between the check and the insert: the unique index decides.
        if (isDuplicateKey(error) && !opts.session) return SLUG_TAKEN
        throw error
      }
    },
    async getOrganization(id) {
      const found = await (await handles()).organizations.findOne({ _id: key(id, "id") as never }, opts)
      return found ? toOrganization(found) : null
    },
    async getOrganizationBySlug(slug) {
      const found = await (await handles()).organizations.findOne({ slug: key(slug, "slug") }, opts)
      return found ? toOrganization(found) : null
    },
    async updateOrganization(id, changes) {
      const { organizations } = await handles()
      const current = await organizations.findOne({ _id: key(id, "id") as never }, opts)
      if (!current) return null
      const $set: Record<string, unknown> = {}
      if (changes.slug !== undefined && changes.slug !== current.slug) {
        if (await organizations.findOne({ slug: key(changes.slug, "slug") }, { ...opts, projection: { _id: 1 } })) return SLUG_TAKEN
        $set.slug = changes.slug
      }
      for (const field of ["name", "logo", "metadata", "roles"] as const) if (changes[field] !== undefined) $set[field] = changes[field]
      if (!Object.keys($set).length) return toOrganization(current)
      try {
        const updated = await organizations.findOneAndUpdate({ _id: id as never }, { $set }, { ...opts, returnDocument: "after" })
        return updated ? toOrganization(updated) : null
      } catch (error) {
        if (isDuplicateKey(error)) return SLUG_TAKEN
        throw error
      }
    },
    async deleteOrganization(id) {
      const { organizations, members, invitations, ssoConnections, ssoDomains, scimTokens, scimUsers, scimGroups } = await handles()
      // One after the other (operations of a transaction must not run in parallel); the organization
      // last, so if a step fails (no transaction), deleteOrganization can simply be called again.
      await atomically(async (options) => {
        // Its SSO connections and domains (issue #28) go with it.
        for (const collection of [ssoDomains, ssoConnections]) await collection.deleteMany({ organizationId: key(id, "id") }, options)
        // And its SCIM tokens, provisioned users and groups (issue #29).
        for (const collection of [scimGroups, scimUsers, scimTokens]) await collection.deleteMany({ organizationId: key(id, "id") }, options)
        await invitations.deleteMany({ organizationId: id }, options)
        await members.deleteMany({ organizationId: id }, options)
        await organizations.deleteOne({ _id: id as never }, options)
      })
    },

    async listMembers(organizationId) {
      const found = await (await handles()).members.find({ organizationId: key(organizationId, "organizationId") }, opts).sort({ createdAt: 1, userId: 1 }).toArray()
      return found.map(toMember)
    },
    async listMemberships(userId) {
      if (!isObjectIdHex(key(userId, "userId"))) return []
      const { members, organizations } = await handles()
      const found = await members.find({ userId: toObjectId(userId) }, opts).sort({ createdAt: 1, organizationId: 1 }).toArray()
      if (!found.length) return []
      const ids = found.map((member) => String(member.organizationId))
      const byId = new Map((await organizations.find({ _id: { $in: ids as never[] } }, opts).toArray()).map((document) => [String(document._id), toOrganization(document)]))
      return found.flatMap((member) => {
        const organization = byId.get(String(member.organizationId))
        return organization ? [{ ...toMember(member), organization }] : []
      })
    },
    async getMember(organizationId, userId) {
      if (!isObjectIdHex(key(userId, "userId"))) return null
      const found = await (await handles()).members.findOne(memberFilter(organizationId, userId), opts)
      return found ? toMember(found) : null
    },
    async addMember(member) {
      const { members } = await handles()
      await userExists(member.userId, opts)
      try {
        await members.insertOne(memberDocument(member), opts)
      } catch (error) {
        if (isDuplicateKey(error)) return null
        throw error
      }
      return { ...member, createdAt: new Date(member.createdAt.getTime()) }
    },
    async updateMemberRole(organizationId, userId, role) {
      if (!isObjectIdHex(key(userId, "userId"))) return null
      const { members } = await handles()
      const filter = memberFilter(organizationId, userId)
      let before: string | undefined
      return keepingAnOwner(
        organizationId,
        async (options) => {
          const previous = await members.findOneAndUpdate(filter, { $set: { role } }, { ...options, returnDocument: "before" })
          if (!previous) return null
          before = String(previous.role)
          return { member: { ...toMember(previous), role }, ownerLost: before === OWNER && role !== OWNER }
        },
        async (options) => {
          await members.updateOne(filter, { $set: { role: before } }, options)
        },
      )
    },
    async removeMember(organizationId, userId) {
      if (!isObjectIdHex(key(userId, "userId"))) return null
      const { members } = await handles()
      let removed: Document | null = null
      return keepingAnOwner(
        organizationId,
        async (options) => {
          removed = await members.findOneAndDelete(memberFilter(organizationId, userId), options)
          return removed ? { member: toMember(removed), ownerLost: removed.role === OWNER } : null
        },
        async (options) => {
          if (removed) await members.insertOne(removed, options)
        },
      )
    },

    async createInvitation(invitation) {
      const { invitations } = await handles()
      const document = {
        _id: key(invitation.id, "id") as never,
        organizationId: key(invitation.organizationId, "organizationId"),
        email: key(invitation.email, "email"),
        role: invitation.role,
        tokenHash: key(invitation.tokenHash, "tokenHash"),
        invitedBy: invitation.invitedBy ?? null,
        createdAt: invitation.createdAt,
        expires: invitation.expires,
      }
      const replace = () =>
        atomically(async (options) => {
          await invitations.deleteMany({ organizationId: document.organizationId, email: document.email }, options)
          await invitations.insertOne(document, options)
        })
      try {
        await replace()
      } catch (error) {
        // Another invitation of the same address was stored between the delete and the insert: replace it too.
        if (!isDuplicateKey(error) || opts.session) throw error
        await replace()
      }
      return toInvitation(document)
    },
    async getInvitation(id) {
      const found = await (await handles()).invitations.findOne({ _id: key(id, "id") as never }, opts)
      return found ? toInvitation(found) : null
    },
    async getInvitationByTokenHash(tokenHash) {
      const found = await (await handles()).invitations.findOne({ tokenHash: key(tokenHash, "tokenHash") }, opts)
      return found ? toInvitation(found) : null
    },
    async listInvitations(organizationId) {
      const found = await (await handles()).invitations.find({ organizationId: key(organizationId, "organizationId") }, opts).sort({ createdAt: 1, _id: 1 }).toArray()
      return found.map(toInvitation)
    },
    async updateInvitation(id, changes) {
      const $set: Record<string, unknown> = {}
      if (changes.tokenHash !== undefined) $set.tokenHash = key(changes.tokenHash, "tokenHash")
      if (changes.expires !== undefined) $set.expires = changes.expires
      if (changes.role !== undefined) $set.role = changes.role
      const { invitations } = await handles()
      const filter = { _id: key(id, "id") as never }
      const found = Object.keys($set).length ? await invitations.findOneAndUpdate(filter, { $set }, { ...opts, returnDocument: "after" }) : await invitations.findOne(filter, opts)
      return found ? toInvitation(found) : null
    },
    async deleteInvitation(id) {
      // One atomic operation: of concurrent callers, exactly one gets the document.
      const deleted = await (await handles()).invitations.findOneAndDelete({ _id: key(id, "id") as never }, opts)
      return deleted ? toInvitation(deleted) : null
    },
  }
}
