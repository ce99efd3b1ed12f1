/**
 * The memory adapter's admin methods (issue #30): users listed in email, then id order (as
 * JavaScript compares strings, which for the addresses people use is the order the SQL adapter's
 * databases give), a page at a time after the last user of the previous one; bans keyed by user
 * id, one per user. Records are copied in and out: callers never hold the stored objects.
 */
import type { Adapter, AdapterUser } from "../../lib/adapters.js"
import type { AdapterUserBan, ADMIN_ADAPTER_METHODS } from "../../lib/admin/adapter.js"

export interface AdminMaps {
  users: Map<string, AdapterUser>
  /** User id -> the user's ban. */
  userBans: Map<string, AdapterUserBan>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type AdminMethods = Required<Pick<Adapter, (typeof ADMIN_ADAPTER_METHODS)[number]>>

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const byEmailThenId = (a: AdapterUser, b: AdapterUser) => compare(a.email, b.email) || compare(a.id, b.id)

function userCopy(user: AdapterUser): AdapterUser {
  return { ...user, emailVerified: user.emailVerified ? new Date(user.emailVerified.getTime()) : null }
}

function banCopy(ban: AdapterUserBan): AdapterUserBan {
  return {
    userId: ban.userId,
    reason: ban.reason ?? null,
    expires: ban.expires ? new Date(ban.expires.getTime()) : null,
    createdAt: new Date(ban.createdAt.getTime()),
    bannedBy: ban.bannedBy ?? null,
  }
}

/** Removes the user's ban (deleteUser). */
export function forgetUserBan(maps: AdminMaps, remove: Remove, userId: string): void {
  remove(maps.userBans, userId)
}

export function adminMethods(maps: AdminMaps, put: Put, remove: Remove): AdminMethods {
  return {
    async listUsers({ search, after, limit }) {
      const needle = search?.toLowerCase()
      const matches = (user: AdapterUser) =>
        needle === undefined || user.id === search || user.email.toLowerCase().includes(needle) || (user.name ?? "").toLowerCase().includes(needle)
      const isAfter = (user: AdapterUser) => !after || compare(user.email, after.email) > 0 || (user.email === after.email && compare(user.id, after.id) > 0)
      return [...maps.users.values()].filter((user) => isAfter(user) && matches(user)).sort(byEmailThenId).slice(0, limit).map(userCopy)
    },
    async getUserBan(userId) {
      const found = maps.userBans.get(userId)
      return found ? banCopy(found) : null
    },
    async putUserBan(ban) {
      // As a foreign key would: a ban belongs to a stored user.
      if (!maps.users.has(ban.userId)) throw new Error(`no user with id ${ban.userId}`)
      put(maps.userBans, ban.userId, banCopy(ban))
    },
    async deleteUserBan(userId) {
      if (!maps.userBans.has(userId)) return false
      remove(maps.userBans, userId)
      return true
    },
  }
}
