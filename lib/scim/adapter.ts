/**
 * The adapter methods of SCIM provisioning (Gatehouse extensions, issue #29): an organization's
 * SCIM tokens (hashed), the users its directory provisioned (the SCIM view of a member: userName,
 * externalId, active, the attributes it sent) and its groups (members, and the role each maps to).
 * They join `Adapter` from here by declaration merging; `SCIM_ADAPTER_METHODS` names them for the
 * core's adapter wrapper and for `MissingAdapterMethods`. Contract checks: adapters/test-kit/scim.ts.
 *
 * Rules the adapter keeps: a token hash is unique; within an organization a userName is unique
 * (case-insensitive: stored lower-cased in `userNameKey`), an externalId is unique, and a group's
 * displayName is unique (`"uniqueness"` when taken, nothing changed).
 */
import type { Awaitable } from "../base-types.js"

export interface AdapterScimToken {
  /** Made by Gatehouse (unique). */
  id: string
  organizationId: string
  /** What the admin called it ("Okta"). */
  name: string
  /** SHA-256 of the token (base64url); the token itself is shown once and never stored. Unique. */
  tokenHash: string
  createdAt: Date
  lastUsedAt: Date | null
}

/** A user as an organization's directory provisioned them. */
export interface AdapterScimUser {
  organizationId: string
  /** The Gatehouse user (the SCIM resource's `id`). */
  userId: string
  userName: string
  /** `userName` lower-cased: what uniqueness and `eq` filters compare. */
  userNameKey: string
  externalId: string | null
  active: boolean
  /** The member's role before a deactivation (restored when reactivated); null while active. */
  suspendedRole: string | null
  /** Every other attribute the directory sent (name, emails, the enterprise extension, ...), as JSON. */
  attributes: Record<string, unknown>
  createdAt: Date
  updatedAt: Date
}

export interface AdapterScimGroup {
  /** Made by Gatehouse (unique; the SCIM resource's `id`). */
  id: string
  organizationId: string
  displayName: string
  externalId: string | null
  /** Gatehouse user ids, in the order they were added. */
  members: string[]
  /** The organization role its members get (null: none; set by the organization's admins). */
  role: string | null
  createdAt: Date
  updatedAt: Date
}

export type ScimUserUpdate = Partial<Pick<AdapterScimUser, "userName" | "userNameKey" | "externalId" | "active" | "suspendedRole" | "attributes" | "updatedAt">>
export type ScimGroupUpdate = Partial<Pick<AdapterScimGroup, "displayName" | "externalId" | "members" | "role" | "updatedAt">>

/** A uniqueness rule refused the write (userName, externalId or displayName taken): nothing was changed. */
export const SCIM_UNIQUENESS = "uniqueness"

declare module "../adapters.js" {
  interface Adapter {
    /** Gatehouse extension (SCIM): stores a token. */
    createScimToken?(token: AdapterScimToken): Awaitable<AdapterScimToken>
    /** Gatehouse extension: the token with this hash, or null. */
    getScimTokenByHash?(tokenHash: string): Awaitable<AdapterScimToken | null>
    /** Gatehouse extension: the organization's tokens, oldest first. */
    listScimTokens?(organizationId: string): Awaitable<AdapterScimToken[]>
    /** Gatehouse extension: records a use (at most once a minute is enough). */
    touchScimToken?(id: string, lastUsedAt: Date): Awaitable<void>
    /** Gatehouse extension: deletes the token. */
    deleteScimToken?(id: string): Awaitable<void>
    /** Gatehouse extension: stores a provisioned user; `"uniqueness"` when the organization has the userName or externalId already. */
    createScimUser?(user: AdapterScimUser): Awaitable<AdapterScimUser | typeof SCIM_UNIQUENESS>
    /** Gatehouse extension: the organization's provisioned user, or null. */
    getScimUser?(organizationId: string, userId: string): Awaitable<AdapterScimUser | null>
    /** Gatehouse extension: every user the organization provisioned, oldest first (filtering and paging are Gatehouse's). */
    listScimUsers?(organizationId: string): Awaitable<AdapterScimUser[]>
    /** Gatehouse extension: applies `changes`; null when there is none; `"uniqueness"` (nothing changed) when taken. */
    updateScimUser?(organizationId: string, userId: string, changes: ScimUserUpdate): Awaitable<AdapterScimUser | typeof SCIM_UNIQUENESS | null>
    /** Gatehouse extension: forgets the provisioned user (and removes them from the organization's groups). */
    deleteScimUser?(organizationId: string, userId: string): Awaitable<void>
    /** Gatehouse extension: stores a group; `"uniqueness"` when the organization has the displayName already. */
    createScimGroup?(group: AdapterScimGroup): Awaitable<AdapterScimGroup | typeof SCIM_UNIQUENESS>
    /** Gatehouse extension: the organization's group, or null (another organization's id reads as none). */
    getScimGroup?(organizationId: string, id: string): Awaitable<AdapterScimGroup | null>
    /** Gatehouse extension: the organization's groups, oldest first. */
    listScimGroups?(organizationId: string): Awaitable<AdapterScimGroup[]>
    /** Gatehouse extension: applies `changes`; null when there is none; `"uniqueness"` when the displayName is taken. */
    updateScimGroup?(organizationId: string, id: string, changes: ScimGroupUpdate): Awaitable<AdapterScimGroup | typeof SCIM_UNIQUENESS | null>
    /** Gatehouse extension: deletes the group. */
    deleteScimGroup?(organizationId: string, id: string): Awaitable<void>
  }
}

export const SCIM_ADAPTER_METHODS = [
  "createScimToken",
  "getScimTokenByHash",
  "listScimTokens",
  "touchScimToken",
  "deleteScimToken",
  "createScimUser",
  "getScimUser",
  "listScimUsers",
  "updateScimUser",
  "deleteScimUser",
  "createScimGroup",
  "getScimGroup",
  "listScimGroups",
  "updateScimGroup",
  "deleteScimGroup",
] as const
