/**
 * The SQL adapter's SCIM provisioning methods (issue #29) and their tables (migration 0009_scim,
 * additive): `scim_tokens` (token hash unique), `scim_users` keyed by (organization, user), with
 * the user's attributes as JSON text, and `scim_groups`, with the members' user ids as a JSON list.
 * All three go with their organization, and a provisioned user with its user (foreign keys with ON
 * DELETE CASCADE, and `deleteOrganization` and `deleteUser` delete them themselves where foreign
 * keys are off); a user deleted or deprovisioned also leaves the groups' member lists.
 *
 * The uniqueness rules (within an organization: a userName key, an externalId, a group's
 * displayName key) are unique constraints; NULL externalIds never collide (PostgreSQL, MySQL,
 * MariaDB and SQLite all let a unique index hold several NULLs). A write they refuse answers
 * `"uniqueness"` with nothing changed: inserts use ON CONFLICT DO NOTHING where the engine has it
 * (a failed statement would spoil a PostgreSQL transaction; on MySQL only the statement fails),
 * updates check first in their transaction, and the constraint decides a race.
 */
import type { Adapter, AdapterScimGroup, AdapterScimToken, AdapterScimUser } from "../../lib/adapters.js"
import { SCIM_UNIQUENESS } from "../../lib/scim/adapter.js"
import { kindOf, optionalStr, str, type AnyDb, type Codec } from "./codec.js"
import { isUniqueViolation } from "./organizations.js"
import type { TableNames } from "./tables.js"
import type { SCIM_ADAPTER_METHODS } from "../../lib/scim/adapter.js"

type ScimMethods = Required<Pick<Adapter, (typeof SCIM_ADAPTER_METHODS)[number]>>

type Row = Record<string, unknown>
type Atomically = <T>(work: (trx: AnyDb) => Promise<T>) => Promise<T>

const fromJson = <T>(value: unknown): T => JSON.parse(str(value)) as T
const toBoolean = (value: unknown) => (typeof value === "boolean" ? value : Boolean(Number(value)))
/** What a group's displayName is compared by (`display_name_key`). */
const displayNameKey = (displayName: string) => displayName.toLowerCase()

/**
 * Takes `userId` out of the member lists of the groups (of one organization, or of every one).
 * LIKE only narrows the rows down (`%`, `_` and `\` in the id become `_`, so it matches at least
 * every list holding the id); the list itself decides. The rows are held (FOR UPDATE) so a
 * concurrent group update does not write an older list over this one.
 */
export async function pullScimMember(trx: AnyDb, t: TableNames, userId: string, organizationId?: string): Promise<void> {
  const pattern = `%${JSON.stringify(userId).replace(/[\\%_]/g, "_")}%`
  let query = trx.selectFrom(t.scimGroups).select(["id", "members"]).where("members", "like", pattern)
  if (organizationId !== undefined) query = query.where("organization_id", "=", organizationId)
  const rows = await (kindOf(trx) === "sqlite" ? query : query.forUpdate()).execute()
  for (const row of rows) {
    const members = fromJson<string[]>(row.members)
    if (!members.includes(userId)) continue
    await trx
      .updateTable(t.scimGroups)
      .set({ members: JSON.stringify(members.filter((member) => member !== userId)) })
      .where("id", "=", str(row.id))
      .execute()
  }
}

/** Removes the user's provisioned records and takes them out of every group (deleteUser, inside its transaction). */
export async function forgetScimUser(trx: AnyDb, t: TableNames, userId: string): Promise<void> {
  await trx.deleteFrom(t.scimUsers).where("user_id", "=", userId).execute()
  await pullScimMember(trx, t, userId)
}

export function scimMethods(db: AnyDb, t: TableNames, codec: Codec, atomically: Atomically, bound: boolean): ScimMethods {
  const kind = kindOf(db)

  const toToken = (row: Row): AdapterScimToken => ({
    id: str(row.id),
    organizationId: str(row.organization_id),
    name: str(row.name),
    tokenHash: str(row.token_hash),
    createdAt: codec.toDate(row.created_at),
    lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : codec.toDate(row.last_used_at),
  })
  const toUser = (row: Row): AdapterScimUser => ({
    organizationId: str(row.organization_id),
    userId: str(row.user_id),
    userName: str(row.user_name),
    userNameKey: str(row.user_name_key),
    externalId: optionalStr(row.external_id),
    active: toBoolean(row.active),
    suspendedRole: optionalStr(row.suspended_role),
    attributes: fromJson(row.attributes),
    createdAt: codec.toDate(row.created_at),
    updatedAt: codec.toDate(row.updated_at),
  })
  const toGroup = (row: Row): AdapterScimGroup => ({
    id: str(row.id),
    organizationId: str(row.organization_id),
    displayName: str(row.display_name),
    externalId: optionalStr(row.external_id),
    members: fromJson(row.members),
    role: optionalStr(row.role),
    createdAt: codec.toDate(row.created_at),
    updatedAt: codec.toDate(row.updated_at),
  })

  const tokenRow = async (trx: AnyDb, column: "id" | "token_hash", value: string) => {
    const row = await trx.selectFrom(t.scimTokens).selectAll().where(column, "=", value).executeTakeFirst()
    return row ? toToken(row) : null
  }
  const userRow = async (trx: AnyDb, organizationId: string, userId: string) => {
    const row = await trx.selectFrom(t.scimUsers).selectAll().where("organization_id", "=", organizationId).where("user_id", "=", userId).executeTakeFirst()
    return row ? toUser(row) : null
  }
  const groupRow = async (trx: AnyDb, organizationId: string, id: string) => {
    const row = await trx.selectFrom(t.scimGroups).selectAll().where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst()
    return row ? toGroup(row) : null
  }
  /** Whether another row of the organization (not `except`) has `value` in `column`. */
  const taken = async (trx: AnyDb, table: string, organizationId: string, column: string, value: string, exceptColumn: string, except: string) => {
    const row = await trx.selectFrom(table).select(exceptColumn).where("organization_id", "=", organizationId).where(column, "=", value).where(exceptColumn, "<>", except).executeTakeFirst()
    return row !== undefined
  }
  /**
   * Inserts a row a unique rule may refuse: true when inserted, false when one did. Any of the
   * table's unique rules (ON CONFLICT DO NOTHING without a target; on MySQL the duplicate is caught).
   */
  const insertUnlessTaken = async (trx: AnyDb, table: string, values: Row): Promise<boolean> => {
    try {
      if (kind === "mysql") {
        await trx.insertInto(table).values(values).execute()
        return true
      }
      const result = await trx
        .insertInto(table)
        .values(values)
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
    } catch (error) {
      if (isUniqueViolation(error)) return false
      throw error
    }
  }
  /**
   * An update checked in its transaction: a unique violation that still happens (a concurrent
   * write took the value after the check) answers `"uniqueness"`; the transaction is undone.
   * Inside a caller's transaction the error is the caller's to handle (PostgreSQL has spoilt it).
   */
  const checkedUpdate = async <T>(work: (trx: AnyDb) => Promise<T>): Promise<T | typeof SCIM_UNIQUENESS> => {
    try {
      return await atomically(work)
    } catch (error) {
      if (isUniqueViolation(error) && !bound) return SCIM_UNIQUENESS
      throw error
    }
  }

  return {
    async createScimToken(token) {
      await db
        .insertInto(t.scimTokens)
        .values({
          id: token.id,
          organization_id: token.organizationId,
          name: token.name,
          token_hash: token.tokenHash,
          created_at: codec.instant(token.createdAt),
          last_used_at: token.lastUsedAt ? codec.instant(token.lastUsedAt) : null,
        })
        .execute()
      return (await tokenRow(db, "id", token.id)) as AdapterScimToken
    },
    getScimTokenByHash: (tokenHash) => tokenRow(db, "token_hash", tokenHash),
    async listScimTokens(organizationId) {
      const rows = await db.selectFrom(t.scimTokens).selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute()
      return rows.map(toToken)
    },
    async touchScimToken(id, lastUsedAt) {
      await db.updateTable(t.scimTokens).set({ last_used_at: codec.instant(lastUsedAt) }).where("id", "=", id).execute()
    },
    async deleteScimToken(id) {
      await db.deleteFrom(t.scimTokens).where("id", "=", id).execute()
    },

    async createScimUser(user) {
      const values = {
        organization_id: user.organizationId,
        user_id: user.userId,
        user_name: user.userName,
        user_name_key: user.userNameKey,
        external_id: user.externalId ?? null,
        active: codec.bool(user.active),
        suspended_role: user.suspendedRole ?? null,
        attributes: JSON.stringify(user.attributes),
        created_at: codec.instant(user.createdAt),
        updated_at: codec.instant(user.updatedAt),
      }
      // The primary key (the same user provisioned twice), the userName key or the externalId.
      if (!(await insertUnlessTaken(db, t.scimUsers, values))) return SCIM_UNIQUENESS
      return (await userRow(db, user.organizationId, user.userId)) as AdapterScimUser
    },
    getScimUser: (organizationId, userId) => userRow(db, organizationId, userId),
    async listScimUsers(organizationId) {
      const rows = await db.selectFrom(t.scimUsers).selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("user_id").execute()
      return rows.map(toUser)
    },
    async updateScimUser(organizationId, userId, changes) {
      return checkedUpdate(async (trx) => {
        if (!(await userRow(trx, organizationId, userId))) return null
        if (changes.userNameKey !== undefined && (await taken(trx, t.scimUsers, organizationId, "user_name_key", changes.userNameKey, "user_id", userId))) return SCIM_UNIQUENESS
        if (typeof changes.externalId === "string" && (await taken(trx, t.scimUsers, organizationId, "external_id", changes.externalId, "user_id", userId))) return SCIM_UNIQUENESS
        const set: Row = {}
        if (changes.userName !== undefined) set.user_name = changes.userName
        if (changes.userNameKey !== undefined) set.user_name_key = changes.userNameKey
        if (changes.externalId !== undefined) set.external_id = changes.externalId
        if (changes.active !== undefined) set.active = codec.bool(changes.active)
        if (changes.suspendedRole !== undefined) set.suspended_role = changes.suspendedRole
        if (changes.attributes !== undefined) set.attributes = JSON.stringify(changes.attributes)
        if (changes.updatedAt !== undefined) set.updated_at = codec.instant(changes.updatedAt)
        if (Object.keys(set).length) await trx.updateTable(t.scimUsers).set(set).where("organization_id", "=", organizationId).where("user_id", "=", userId).execute()
        return userRow(trx, organizationId, userId)
      })
    },
    async deleteScimUser(organizationId, userId) {
      await atomically(async (trx) => {
        await trx.deleteFrom(t.scimUsers).where("organization_id", "=", organizationId).where("user_id", "=", userId).execute()
        await pullScimMember(trx, t, userId, organizationId)
      })
    },

    async createScimGroup(group) {
      const values = {
        id: group.id,
        organization_id: group.organizationId,
        display_name: group.displayName,
        display_name_key: displayNameKey(group.displayName),
        external_id: group.externalId ?? null,
        members: JSON.stringify(group.members),
        role: group.role ?? null,
        created_at: codec.instant(group.createdAt),
        updated_at: codec.instant(group.updatedAt),
      }
      if (!(await insertUnlessTaken(db, t.scimGroups, values))) return SCIM_UNIQUENESS
      return (await groupRow(db, group.organizationId, group.id)) as AdapterScimGroup
    },
    getScimGroup: (organizationId, id) => groupRow(db, organizationId, id),
    async listScimGroups(organizationId) {
      const rows = await db.selectFrom(t.scimGroups).selectAll().where("organization_id", "=", organizationId).orderBy("created_at").orderBy("id").execute()
      return rows.map(toGroup)
    },
    async updateScimGroup(organizationId, id, changes) {
      return checkedUpdate(async (trx) => {
        if (!(await groupRow(trx, organizationId, id))) return null
        const set: Row = {}
        if (changes.displayName !== undefined) {
          const key = displayNameKey(changes.displayName)
          if (await taken(trx, t.scimGroups, organizationId, "display_name_key", key, "id", id)) return SCIM_UNIQUENESS
          set.display_name = changes.displayName
          set.display_name_key = key
        }
        if (changes.externalId !== undefined) set.external_id = changes.externalId
        if (changes.members !== undefined) set.members = JSON.stringify(changes.members)
        if (changes.role !== undefined) set.role = changes.role
        if (changes.updatedAt !== undefined) set.updated_at = codec.instant(changes.updatedAt)
        if (Object.keys(set).length) await trx.updateTable(t.scimGroups).set(set).where("organization_id", "=", organizationId).where("id", "=", id).execute()
        return groupRow(trx, organizationId, id)
      })
    },
    async deleteScimGroup(organizationId, id) {
      await db.deleteFrom(t.scimGroups).where("organization_id", "=", organizationId).where("id", "=", id).execute()
    },
  }
}
