/**
 * Finding and changing users (issue #30): the list (search by email, name or id; pages in email
 * order, a cursor for the next one), creating a user, and changing a name or an address. An
 * address is normalised as sign-in normalises it and must be free (`EmailInUse`); a changed
 * address is unverified unless the admin says it is verified (the email-trust rules: an address
 * nobody proved never links a provider's account to this user, lib/linking/email-trust.ts).
 */
import { randomUUID } from "node:crypto"
import type { AdapterUser } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { announce } from "../devices/runtime.js"
import { InvalidRequest } from "../errors.js"
import { normalizeEmail } from "../providers/email/identifier.js"
import type { AdapterUserBan } from "./adapter.js"
import { adminSettingsOf, adminStorageOf, targetUser } from "./access.js"
import { adminChanged, type Actor } from "./changes.js"
import { EmailInUse } from "./errors.js"

const MAX_NAME = 200
const MAX_SEARCH = 200

/** A user as the list and the views show them. */
export interface AdminUserSummary {
  id: string
  email: string
  name: string | null
  image: string | null
  emailVerified: string | null
  /** The ban in force, or null. */
  ban: { reason: string | null; expires: string | null; createdAt: string; bannedBy: string | null } | null
}

export interface UserPage {
  users: AdminUserSummary[]
  /** Pass as `cursor` for the next page; null on the last one. */
  next: string | null
}

export function banView(ban: AdapterUserBan | null, now = Date.now()): AdminUserSummary["ban"] {
  if (!ban || (ban.expires !== null && ban.expires.getTime() <= now)) return null
  return { reason: ban.reason, expires: ban.expires?.toISOString() ?? null, createdAt: ban.createdAt.toISOString(), bannedBy: ban.bannedBy }
}

export function summaryOf(user: AdapterUser, ban: AdapterUserBan | null): AdminUserSummary {
  const verified = user.emailVerified ? new Date(user.emailVerified) : null
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? null,
    image: user.image ?? null,
    emailVerified: verified && !Number.isNaN(verified.getTime()) ? verified.toISOString() : null,
    ban: banView(ban),
  }
}

function encodeCursor(user: AdapterUser): string {
  return Buffer.from(JSON.stringify([user.email, user.id])).toString("base64url")
}

function decodeCursor(cursor: unknown): { email: string; id: string } | undefined {
  if (cursor === undefined || cursor === null || cursor === "") return undefined
  try {
    const parsed: unknown = typeof cursor === "string" && cursor.length < 2000 ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) : undefined
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string") return { email: parsed[0], id: parsed[1] }
  } catch {
    // Refused below.
  }
  throw new InvalidRequest("The cursor is not one a user list gave")
}

/** One page of users, `search` (optional) matching an exact id or part of an email or name. */
export async function listUsers(config: ResolvedConfig, input: { search?: unknown; cursor?: unknown; limit?: unknown } = {}): Promise<UserPage> {
  const settings = adminSettingsOf(config)
  const storage = adminStorageOf(config)
  if (input.search !== undefined && typeof input.search !== "string") throw new InvalidRequest("search must be text")
  const search = (input.search ?? "").trim().slice(0, MAX_SEARCH)
  const limit = input.limit === undefined || input.limit === "" ? settings.pageSize : Number(input.limit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new InvalidRequest("limit must be a whole number from 1 to 100")
  const after = decodeCursor(input.cursor)
  // One more than asked: whether there is a next page, without counting.
  const found = await storage.listUsers({ ...(search && { search }), ...(after && { after }), limit: limit + 1 })
  const page = found.slice(0, limit)
  const bans = await Promise.all(page.map((user) => storage.getUserBan(user.id)))
  const last = page[page.length - 1]
  return { users: page.map((user, i) => summaryOf(user, bans[i] ?? null)), next: found.length > limit && last ? encodeCursor(last) : null }
}

function nameOf(value: unknown): string | null | undefined {
  if (value === undefined) return undefined
  if (value === null || value === "") return null
  if (typeof value !== "string" || value.length > MAX_NAME) throw new InvalidRequest(`A name must be text of at most ${MAX_NAME} characters`)
  return value.trim() || null
}

function verifiedFlag(value: unknown): boolean {
  return value === true || value === "true" || value === "on" || value === "1"
}

async function freeAddress(config: ResolvedConfig, raw: unknown, userId?: string): Promise<string> {
  if (typeof raw !== "string" || !raw.trim()) throw new InvalidRequest("An email address is needed")
  let email: string
  try {
    email = normalizeEmail(raw)
  } catch {
    throw new InvalidRequest("That is not an email address Gatehouse can send to")
  }
  const holder = await adminStorageOf(config).getUserByEmail(email)
  if (holder && holder.id !== userId) throw new EmailInUse("Another user has this email address")
  return email
}

export async function createUser(config: ResolvedConfig, input: { email?: unknown; name?: unknown; emailVerified?: unknown }, actor: Actor): Promise<AdminUserSummary> {
  const storage = adminStorageOf(config)
  const email = await freeAddress(config, input.email)
  const name = nameOf(input.name) ?? null
  const user = await storage.createUser({ id: randomUUID(), email, name, emailVerified: verifiedFlag(input.emailVerified) ? new Date() : null })
  await fireEvent(config, "createUser", { user })
  await adminChanged(config, { type: "admin.user_created", adminId: actor?.userId ?? null, userId: user.id })
  return summaryOf(user, null)
}

export async function updateUser(config: ResolvedConfig, userId: unknown, input: { email?: unknown; name?: unknown; emailVerified?: unknown }, actor: Actor): Promise<AdminUserSummary> {
  const storage = adminStorageOf(config)
  const user = await targetUser(config, userId)
  const changes: Partial<AdapterUser> & { id: string } = { id: user.id }
  const name = nameOf(input.name)
  if (name !== undefined && name !== (user.name ?? null)) changes.name = name
  if (input.email !== undefined && input.email !== "") {
    const email = await freeAddress(config, input.email, user.id)
    if (email !== user.email) {
      changes.email = email
      // A new address is nobody's proof until someone proves it (or the admin says it was).
      changes.emailVerified = verifiedFlag(input.emailVerified) ? new Date() : null
    }
  }
  if (changes.email === undefined && verifiedFlag(input.emailVerified) && !user.emailVerified) changes.emailVerified = new Date()
  const fields = Object.keys(changes).filter((key) => key !== "id")
  if (!fields.length) return summaryOf(user, await storage.getUserBan(user.id))
  const updated = await storage.updateUser(changes)
  // Every process drops its cached database sessions of the user, which hold the old name and email.
  await announce(config, { user: user.id, notBefore: 0 })
  await fireEvent(config, "updateUser", { user: updated })
  await adminChanged(config, { type: "admin.user_updated", adminId: actor?.userId ?? null, userId: user.id, fields })
  return summaryOf(updated, await storage.getUserBan(user.id))
}
