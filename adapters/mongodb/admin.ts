/**
 * The MongoDB adapter's admin methods (issue #30). Users are listed in email, then `_id` order
 * (the simple binary collation: bytes, as the SQL adapter's MySQL and SQLite; an ObjectId's order
 * is its hex string's), a page at a time after the last user of the previous one; users without
 * an email (no `email` field) sort first, as "" does. One document per ban in `user_bans`, `_id`
 * the user's ObjectId (so one ban per user), replaced whole (upsert). Deleting a user removes its
 * ban (adapter.ts).
 */
import type { ClientSession, Document } from "mongodb"
import type { Adapter } from "../../lib/adapters.js"
import type { AdapterUserBan, UserListQuery } from "../../lib/admin/adapter.js"
import type { Handles } from "./collections.js"
import { fromUser, isObjectIdHex, key, toObjectId } from "./convert.js"
import type { ADMIN_ADAPTER_METHODS } from "../../lib/admin/adapter.js"

type AdminMethods = Required<Pick<Adapter, (typeof ADMIN_ADAPTER_METHODS)[number]>>
type Options = { session?: ClientSession }

/** `text` as a regular expression matching it literally (its `.`, `*`, `(`... are not operators). */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const optionalString = (value: unknown): string | null => (typeof value === "string" ? value : null)

function toBan(document: Document): AdapterUserBan {
  const userId = document._id as { toHexString?: () => string }
  return {
    userId: typeof userId?.toHexString === "function" ? userId.toHexString() : String(userId),
    reason: optionalString(document.reason),
    expires: document.expires ? new Date(document.expires as Date) : null,
    createdAt: new Date(document.createdAt as Date),
    bannedBy: optionalString(document.bannedBy),
  }
}

/** The filter of the users after `after` in (email, _id) order; a user without an email has none stored. */
function afterFilter(after: NonNullable<UserListQuery["after"]>): Document {
  const _id = toObjectId(after.id)
  const email = key(after.email, "after.email")
  // `$gt` on a string matches strings only (BSON compares within a type): the users with an email.
  if (email === "") return { $or: [{ email: null, _id: { $gt: _id } }, { email: { $type: "string" } }] }
  return { $or: [{ email: { $gt: email } }, { email, _id: { $gt: _id } }] }
}

/** The filter of the users matching `search`: exact id, or email or name containing it (ignoring case). */
function searchFilter(search: string): Document {
  const contains = { $regex: literal(key(search, "search")), $options: "i" }
  const or: Document[] = [{ email: contains }, { name: contains }]
  if (isObjectIdHex(search)) or.push({ _id: toObjectId(search) })
  return { $or: or }
}

export function adminMethods(handles: () => Promise<Handles>, opts: Options): AdminMethods {
  return {
    async listUsers({ search, after, limit }) {
      const filters: Document[] = []
      if (after) filters.push(afterFilter(after))
      if (search !== undefined) filters.push(searchFilter(search))
      const filter = filters.length ? { $and: filters } : {}
      const found = await (await handles()).users.find(filter, opts).sort({ email: 1, _id: 1 }).limit(limit).toArray()
      return found.map(fromUser)
    },
    async getUserBan(userId) {
      if (!isObjectIdHex(key(userId, "userId"))) return null
      const found = await (await handles()).userBans.findOne({ _id: toObjectId(userId) }, opts)
      return found ? toBan(found) : null
    },
    async putUserBan(ban) {
      const _id = toObjectId(ban.userId)
      const { users, userBans } = await handles()
      // As a foreign key would: a ban belongs to a stored user.
      if (!(await users.findOne({ _id }, { ...opts, projection: { _id: 1 } }))) throw new Error(`no user with id ${ban.userId}`)
      const document = { reason: ban.reason ?? null, expires: ban.expires ?? null, createdAt: ban.createdAt, bannedBy: ban.bannedBy ?? null }
      await userBans.replaceOne({ _id }, document, { ...opts, upsert: true })
    },
    async deleteUserBan(userId) {
      if (!isObjectIdHex(key(userId, "userId"))) return false
      const { deletedCount } = await (await handles()).userBans.deleteOne({ _id: toObjectId(userId) }, opts)
      return deletedCount > 0
    },
  }
}
