/**
 * The adapter methods of the admin tools (Gatehouse extensions, issue #30): finding users
 * (search and pages in a stable order) and bans. They join `Adapter` from here by declaration
 * merging; `ADMIN_ADAPTER_METHODS` names them for the core's adapter wrapper and for
 * `MissingAdapterMethods`. Contract checks: adapters/test-kit/admin.ts.
 *
 * Rules the adapter keeps:
 * - `listUsers` orders users by email, then id (both compared as the database compares them;
 *   stable from one call to the next), and starts after `after` (the last user of the previous
 *   page) when given. `search` (already trimmed, never empty) matches a user whose id is exactly
 *   it, or whose email or name contains it, ignoring case (ASCII letters at least). At most
 *   `limit` users.
 * - A user has at most one ban; `putUserBan` creates or replaces it. `deleteUser` removes the
 *   user's ban too.
 */
import type { Awaitable, User } from "../base-types.js"

/** A stored user as the list gives it (the shape of `AdapterUser`, named here so this file needs nothing of lib/adapters.ts). */
export interface ListedUser extends User {
  id: string
  email: string
  emailVerified: Date | null
  name?: string | null
  image?: string | null
}

export interface AdapterUserBan {
  userId: string
  /** Why (shown to admins, never to the banned user); null when none was given. */
  reason: string | null
  /** When it ends by itself (null: until an admin lifts it). */
  expires: Date | null
  createdAt: Date
  /** The admin who banned the user (null: server code). */
  bannedBy: string | null
}

export interface UserListQuery {
  /** Trimmed, never empty: an exact id, or part of an email or name (case-insensitive). */
  search?: string
  /** Start after this user (the last one of the previous page). */
  after?: { email: string; id: string }
  /** 1 to 101. */
  limit: number
}

declare module "../adapters.js" {
  interface Adapter {
    /** Gatehouse extension (admin): users in email, then id order, after `after`, matching `search`; at most `limit`. */
    listUsers?(query: UserListQuery): Awaitable<ListedUser[]>
    /** Gatehouse extension (admin): the user's ban (an expired one included), or null. */
    getUserBan?(userId: string): Awaitable<AdapterUserBan | null>
    /** Gatehouse extension (admin): creates or replaces the user's ban. */
    putUserBan?(ban: AdapterUserBan): Awaitable<void>
    /** Gatehouse extension (admin): lifts the user's ban; true when there was one. */
    deleteUserBan?(userId: string): Awaitable<boolean>
  }
}

export const ADMIN_ADAPTER_METHODS = ["listUsers", "getUserBan", "putUserBan", "deleteUserBan"] as const
