/**
 * The SQL adapter's organization methods (issue #27) and their tables (migration
 * 0007_organizations, additive): organizations (slug unique), members keyed by (organization,
 * user), pending invitations (token hash unique, one per organization and address).
 *
 * The rules that must hold under concurrency:
 * - a slug is unique: the unique constraint decides; a violation is answered `"slugTaken"`
 *   (PostgreSQL and SQLite insert with ON CONFLICT DO NOTHING, so the transaction is not spoilt);
 * - a user is a member once: the primary key decides (`addMember` answers null);
 * - never no owner: `updateMemberRole` and `removeMember` first hold the organization's row for
 *   the rest of their transaction (SELECT ... FOR UPDATE; on SQLite a write, which takes the
 *   database's write lock), so changes to one organization's members run one after the other,
 *   then count the owners;
 * - an invitation is used once: `deleteInvitation` deletes and returns in one step (`take`).
 */
import type { Adapter, AdapterInvitation, AdapterMember, AdapterOrganization } from "../../lib/adapters.js"
import { LAST_OWNER, SLUG_TAKEN } from "../../lib/organizations/adapter.js"
import { kindOf, optionalStr, str, type AnyDb, type Codec } from "./codec.js"
import type { TableNames } from "./tables.js"
import type { ORGANIZATION_ADAPTER_METHODS } from "../../lib/organizations/adapter.js"

type OrganizationMethods = Required<Pick<Adapter, (typeof ORGANIZATION_ADAPTER_METHODS)[number]>>

type Row = Record<string, unknown>
type Atomically = <T>(work: (trx: AnyDb) => Promise<T>) => Promise<T>
type Take = (table: string, where: Record<string, string>) => Promise<Row | undefined>

const OWNER = "owner"

/** A unique (or primary key) violation: PostgreSQL 23505, MySQL/MariaDB ER_DUP_ENTRY, SQLite's constraint codes. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  return code === "23505" || code === "ER_DUP_ENTRY" || errno === 1062 || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY"
}

/** A transaction the engine ended to break a deadlock (MySQL/MariaDB ER_LOCK_DEADLOCK, PostgreSQL 40P01): safe to run again. */
function isDeadlock(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  return code === "40P01" || code === "ER_LOCK_DEADLOCK" || errno === 1213
}

const toJson = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value))
const fromJson = <T>(value: unknown): T | null => (value === undefined || value === null ? null : (JSON.parse(str(value)) as T))

export function organizationMethods(db: AnyDb, t: TableNames, codec: Codec, atomically: Atomically, take: Take, bound: boolean): OrganizationMethods {
  const kind = kindOf(db)

  const toOrganization = (row: Row, createdAt: unknown = row.created_at): AdapterOrganization => ({
    id: str(row.id),
    slug: str(row.slug),
    name: str(row.name),
    logo: optionalStr(row.logo),
    metadata: fromJson(row.metadata),
    roles: fromJson(row.roles),
    createdAt: codec.toDate(createdAt),
  })
  const toMember = (row: Row): AdapterMember => ({
    organizationId: str(row.organization_id),
    userId: str(row.user_id),
    role: str(row.role),
    createdAt: codec.toDate(row.created_at),
  })
  const toInvitation = (row: Row): AdapterInvitation => ({
    id: str(row.id),
    organizationId: str(row.organization_id),
    email: str(row.email),
    role: str(row.role),
    tokenHash: str(row.token_hash),
    invitedBy: optionalStr(row.invited_by),
    createdAt: codec.toDate(row.created_at),
    expires: codec.toDate(row.expires),
  })
  const memberColumns = (member: AdapterMember) => ({
    organization_id: member.organizationId,
    user_id: member.userId,
    role: member.role,
    created_at: codec.instant(member.createdAt),
  })

  const organizationById = async (trx: AnyDb, id: string) => {
    const row = await trx.selectFrom(t.organizations).selectAll().where("id", "=", id).executeTakeFirst()
    return row ? toOrganization(row) : null
  }
  const memberRow = (trx: AnyDb, organizationId: string, userId: string) => {
    const query = trx.selectFrom(t.members).selectAll().where("organization_id", "=", organizationId).where("user_id", "=", userId)
    return (kind === "sqlite" ? query : query.forUpdate()).executeTakeFirst()
  }
  /**
   * Inserts a row whose unique key may be taken: true when inserted, false when the key was. Where
   * the engine has it, ON CONFLICT DO NOTHING (a failed statement would spoil a PostgreSQL
   * transaction); on MySQL the duplicate is caught (there only the statement fails).
   */
  const insertUnlessTaken = async (trx: AnyDb, table: string, values: Row, columns: string[]): Promise<boolean> => {
    try {
      if (kind === "mysql") {
        await trx.insertInto(table).values(values).execute()
        return true
      }
      const result = await trx
        .insertInto(table)
        .values(values)
        .onConflict((conflict) => conflict.columns(columns).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
    } catch (error) {
      if (isUniqueViolation(error)) return false
      throw error
    }
  }
  /**
   * Holds the organization's row until the transaction ends: every member change of one
   * organization waits for the one before. SQLite has no row locks: a write takes the database's
   * write lock (a read would not).
   */
  const holdOrganization = async (trx: AnyDb, organizationId: string) => {
    if (kind === "sqlite") await trx.updateTable(t.organizations).set((eb) => ({ name: eb.ref("name") })).where("id", "=", organizationId).execute()
    else await trx.selectFrom(t.organizations).select("id").where("id", "=", organizationId).forUpdate().execute()
  }
  /** Whether `userId` (an owner) is the organization's only owner, read after `holdOrganization`. */
  const onlyOwner = async (trx: AnyDb, organizationId: string) => {
    const query = trx.selectFrom(t.members).select("user_id").where("organization_id", "=", organizationId).where("role", "=", OWNER)
    // FOR UPDATE: on MySQL a locking read sees the latest committed rows, not the transaction's snapshot.
    const owners = await (kind === "sqlite" ? query : query.forUpdate()).execute()
    return owners.length <= 1
  }

  return {
    async createOrganization(organization, owner) {
      return atomically(async (trx) => {
        const values = {
          id: organization.id,
          slug: organization.slug,
          name: organization.name,
          logo: organization.logo ?? null,
          metadata: toJson(organization.metadata),
          roles: toJson(organization.roles),
          created_at: codec.instant(organization.createdAt),
        }
        if (!(await insertUnlessTaken(trx, t.organizations, values, ["slug"]))) return SLUG_TAKEN
        await trx.insertInto(t.members).values(memberColumns({ ...owner, organizationId: organization.id })).execute()
        return (await organizationById(trx, organization.id)) as AdapterOrganization
      })
    },
    getOrganization: (id) => organizationById(db, id),
    async getOrganizationBySlug(slug) {
      const row = await db.selectFrom(t.organizations).selectAll().where("slug", "=", slug).executeTakeFirst()
      return row ? toOrganization(row) : null
    },
    async updateOrganization(id, changes) {
      return atomically(async (trx) => {
        const current = await organizationById(trx, id)
        if (!current) return null
        const set: Row = {}
        if (changes.slug !== undefined && changes.slug !== current.slug) {
          const taken = await trx.selectFrom(t.organizations).select("id").where("slug", "=", changes.slug).executeTakeFirst()
          if (taken) return SLUG_TAKEN
          set.slug = changes.slug
        }
        if (changes.name !== undefined) set.name = changes.name
        if (changes.logo !== undefined) set.logo = changes.logo
        if (changes.metadata !== undefined) set.metadata = toJson(changes.metadata)
        if (changes.roles !== undefined) set.roles = toJson(changes.roles)
        if (Object.keys(set).length) {
          try {
            await trx.updateTable(t.organizations).set(set).where("id", "=", id).execute()
          } catch (error) {
            // Another organization took the slug since the check: the constraint decides.
            if (isUniqueViolation(error)) return SLUG_TAKEN
            throw error
          }
        }
        return organizationById(trx, id)
      })
    },
    async deleteOrganization(id) {
      await atomically(async (trx) => {
        // Its SSO connections and domains (issue #28) too: the foreign keys cascade, but may be off (SQLite).
        for (const table of [t.ssoDomains, t.ssoConnections]) await trx.deleteFrom(table).where("organization_id", "=", id).execute()
        // And its SCIM tokens, provisioned users and groups (issue #29), and its API keys (issue #31).
        for (const table of [t.scimGroups, t.scimUsers, t.scimTokens, t.apiKeys]) await trx.deleteFrom(table).where("organization_id", "=", id).execute()
        await trx.deleteFrom(t.invitations).where("organization_id", "=", id).execute()
        await trx.deleteFrom(t.members).where("organization_id", "=", id).execute()
        await trx.deleteFrom(t.organizations).where("id", "=", id).execute()
      })
    },

    async listMembers(organizationId) {
      const rows = await db.selectFrom(t.members).selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("user_id").execute()
      return rows.map(toMember)
    },
    async listMemberships(userId) {
      const rows = await db
        .selectFrom(t.members)
        .innerJoin(t.organizations, `${t.organizations}.id`, `${t.members}.organization_id`)
        .select([`${t.members}.organization_id`, `${t.members}.user_id`, `${t.members}.role`, `${t.members}.created_at`])
        .select([`${t.organizations}.id`, `${t.organizations}.slug`, `${t.organizations}.name`, `${t.organizations}.logo`, `${t.organizations}.metadata`, `${t.organizations}.roles`])
        .select(`${t.organizations}.created_at as organization_created_at`)
        .where(`${t.members}.user_id`, "=", userId)
        .orderBy(`${t.members}.created_at`)
        .orderBy(`${t.members}.organization_id`)
        .execute()
      return rows.map((row) => ({ ...toMember(row), organization: toOrganization(row, row.organization_created_at) }))
    },
    async getMember(organizationId, userId) {
      const row = await db.selectFrom(t.members).selectAll().where("organization_id", "=", organizationId).where("user_id", "=", userId).executeTakeFirst()
      return row ? toMember(row) : null
    },
    async addMember(member) {
      const added = await insertUnlessTaken(db, t.members, memberColumns(member), ["organization_id", "user_id"])
      return added ? { ...member, createdAt: new Date(member.createdAt.getTime()) } : null
    },
    async updateMemberRole(organizationId, userId, role) {
      return atomically(async (trx) => {
        await holdOrganization(trx, organizationId)
        const row = await memberRow(trx, organizationId, userId)
        if (!row) return null
        const current = toMember(row)
        if (current.role === OWNER && role !== OWNER && (await onlyOwner(trx, organizationId))) return LAST_OWNER
        await trx.updateTable(t.members).set({ role }).where("organization_id", "=", organizationId).where("user_id", "=", userId).execute()
        return { ...current, role }
      })
    },
    async removeMember(organizationId, userId) {
      return atomically(async (trx) => {
        await holdOrganization(trx, organizationId)
        const row = await memberRow(trx, organizationId, userId)
        if (!row) return null
        const current = toMember(row)
        if (current.role === OWNER && (await onlyOwner(trx, organizationId))) return LAST_OWNER
        await trx.deleteFrom(t.members).where("organization_id", "=", organizationId).where("user_id", "=", userId).execute()
        return current
      })
    },

    async createInvitation(invitation) {
      const replace = () =>
        atomically(async (trx) => {
          await trx.deleteFrom(t.invitations).where("organization_id", "=", invitation.organizationId).where("email", "=", invitation.email).execute()
          await trx
            .insertInto(t.invitations)
            .values({
              id: invitation.id,
              organization_id: invitation.organizationId,
              email: invitation.email,
              role: invitation.role,
              token_hash: invitation.tokenHash,
              invited_by: invitation.invitedBy ?? null,
              created_at: codec.instant(invitation.createdAt),
              expires: codec.instant(invitation.expires),
            })
            .execute()
        })
      // Two invitations of one address at once: the second insert meets the first's row (or, on
      // MySQL, a deadlock over the gap both deletes locked). Once more replaces it, as a later call
      // would; inside a caller's transaction the error is the caller's to handle.
      for (let attempt = 1; ; attempt++) {
        try {
          await replace()
          return { ...invitation, invitedBy: invitation.invitedBy ?? null }
        } catch (error) {
          if (bound || attempt >= 3 || !(isUniqueViolation(error) || isDeadlock(error))) throw error
        }
      }
    },
    async getInvitation(id) {
      const row = await db.selectFrom(t.invitations).selectAll().where("id", "=", id).executeTakeFirst()
      return row ? toInvitation(row) : null
    },
    async getInvitationByTokenHash(tokenHash) {
      const row = await db.selectFrom(t.invitations).selectAll().where("token_hash", "=", tokenHash).executeTakeFirst()
      return row ? toInvitation(row) : null
    },
    async listInvitations(organizationId) {
      const rows = await db.selectFrom(t.invitations).selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute()
      return rows.map(toInvitation)
    },
    async updateInvitation(id, changes) {
      const set: Row = {}
      if (changes.tokenHash !== undefined) set.token_hash = changes.tokenHash
      if (changes.expires !== undefined) set.expires = codec.instant(changes.expires)
      if (changes.role !== undefined) set.role = changes.role
      if (Object.keys(set).length) await db.updateTable(t.invitations).set(set).where("id", "=", id).execute()
      const row = await db.selectFrom(t.invitations).selectAll().where("id", "=", id).executeTakeFirst()
      return row ? toInvitation(row) : null
    },
    async deleteInvitation(id) {
      const row = await take(t.invitations, { id })
      return row ? toInvitation(row) : null
    },
  }
}
