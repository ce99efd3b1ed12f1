/**
 * This process's memory of each signed-in user's memberships, so that reading the session with
 * organizations on (`auth.organization`) and checking a permission cost no database round trip on
 * the common path. A user's memberships (one adapter call, `listMemberships`) are trusted for
 * `MEMBERSHIP_REFRESH_MS`; any change to them (a role changed, a member removed, an organization
 * renamed or deleted) drops them at once in this process and, through the store's revocation
 * channel (pub/sub, the one revocations use), in every process that shares the store. The refresh
 * bound holds even where the store has no channel (the adapter store) or a message is lost.
 *
 * Bounded: the least recently loaded users go first.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { AdapterMembership } from "./adapter.js"
import { grantOf, type RoleGrant } from "./roles.js"
import type { ResolvedOrganizations } from "./settings.js"
import { makeRoom } from "../core/bounded-map.js"

/** What `auth.organization` is: the active organization and the user's role and permissions there. */
export interface ActiveOrganization {
  readonly id: string
  readonly slug: string
  readonly role: string
  readonly permissions: readonly string[]
}

export interface Membership {
  /** Frozen and shared by every read (it is what `auth.organization` is). */
  readonly fact: ActiveOrganization
  readonly name: string
  readonly grant: RoleGrant
}

export interface UserMemberships {
  /** Oldest first. */
  readonly list: readonly Membership[]
  readonly byId: ReadonlyMap<string, Membership>
}

/** How long an answer is trusted: a process that missed a change's message sees it within a second (this, and one load). */
export const MEMBERSHIP_REFRESH_MS = 800
const MAX_USERS = 10_000
/** The channel message that drops a user's memberships (JSON, on the revocation channel). */
const MESSAGE_KEY = "organizationMember"

const NO_PERMISSIONS: RoleGrant = Object.freeze({ role: "", permissions: Object.freeze([]), set: new Set<string>() })

interface Entry {
  value: UserMemberships
  at: number
}

function membershipsOf(settings: ResolvedOrganizations, rows: readonly AdapterMembership[]): UserMemberships {
  const list: Membership[] = []
  const byId = new Map<string, Membership>()
  for (const row of rows) {
    const organization = row.organization
    // A role nobody defines any more (the configuration changed) grants nothing.
    const grant = grantOf(settings.book, row.role, organization.roles, settings.customRoles) ?? NO_PERMISSIONS
    const fact = Object.freeze({ id: organization.id, slug: organization.slug, role: row.role, permissions: grant.permissions })
    const membership = Object.freeze({ fact, name: organization.name, grant })
    list.push(membership)
    byId.set(organization.id, membership)
  }
  return Object.freeze({ list: Object.freeze(list), byId })
}

export class MembershipCache {
  readonly #users = new Map<string, Entry>()
  readonly #loading = new Map<string, Promise<UserMemberships>>()
  /** A counter moved by every load and drop: a load older than the user's last drop is not cached. */
  #sequence = 0
  readonly #dropped = new Map<string, number>()

  /** The user's memberships when known freshly here; undefined: load them. */
  get(userId: string, now: number): UserMemberships | undefined {
    const known = this.#users.get(userId)
    return known && now - known.at < MEMBERSHIP_REFRESH_MS ? known.value : undefined
  }

  /** Loads the user's memberships (one load at a time per user). */
  load(config: ResolvedConfig, settings: ResolvedOrganizations, userId: string): Promise<UserMemberships> {
    const pending = this.#loading.get(userId)
    if (pending) return pending
    const started = Date.now()
    const ticket = ++this.#sequence
    const loading = Promise.resolve(config.adapter!.listMemberships!(userId)).then(
      (rows) => {
        if (this.#loading.get(userId) === loading) this.#loading.delete(userId)
        const value = membershipsOf(settings, rows)
        // A change made while this load ran may not be in its answer: used once, not kept.
        if ((this.#dropped.get(userId) ?? 0) < ticket) put(this.#users, userId, { value, at: started })
        return value
      },
      (error: unknown) => {
        if (this.#loading.get(userId) === loading) this.#loading.delete(userId)
        throw error
      },
    )
    this.#loading.set(userId, loading)
    return loading
  }

  drop(userId: string): void {
    this.#users.delete(userId)
    this.#loading.delete(userId)
    put(this.#dropped, userId, ++this.#sequence)
  }
}

function put<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key)
  makeRoom(map, MAX_USERS)
  map.set(key, value)
}

const caches = new WeakMap<ResolvedConfig, MembershipCache>()

/** This configuration's cache; the first call subscribes to the channel. */
export function membershipCache(config: ResolvedConfig): MembershipCache {
  const known = caches.get(config)
  if (known) return known
  const made = new MembershipCache()
  caches.set(config, made)
  config.store
    .subscribe?.((text) => {
      if (!text.includes(MESSAGE_KEY)) return
      try {
        const message = JSON.parse(text) as Record<string, unknown>
        if (typeof message[MESSAGE_KEY] === "string") made.drop(message[MESSAGE_KEY])
      } catch {
        // not one of ours
      }
    })
    .catch((error: unknown) => config.logger.error(error as Error))
  return made
}

/** The user's memberships changed: dropped here at once, then in every process sharing the store (a failure is logged: the refresh bound still holds). */
export async function membershipsChanged(config: ResolvedConfig, userIds: readonly string[]): Promise<void> {
  const cache = membershipCache(config)
  for (const userId of userIds) cache.drop(userId)
  const publish = config.store.publish
  if (!publish) return
  await Promise.all(
    userIds.map((userId) =>
      publish.call(config.store, JSON.stringify({ [MESSAGE_KEY]: userId })).catch((error: unknown) => config.logger.error(error as Error)),
    ),
  )
}

/** The user's memberships: from this process's cache, without a promise, when fresh. */
export function userMemberships(config: ResolvedConfig, settings: ResolvedOrganizations, userId: string): UserMemberships | Promise<UserMemberships> {
  const cache = membershipCache(config)
  return cache.get(userId, Date.now()) ?? cache.load(config, settings, userId)
}
