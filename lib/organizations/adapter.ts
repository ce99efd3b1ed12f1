/**
 * The adapter methods organizations need (Gatehouse extensions, issue #27): organizations, their
 * members and their pending invitations. They join `Adapter` from here by declaration merging, and
 * `ORGANIZATION_ADAPTER_METHODS` names them for the core's adapter wrapper (lib/core/adapter.ts)
 * and for `MissingAdapterMethods`. The contract-kit checks are adapters/test-kit/organizations.ts.
 *
 * The rules that must hold under concurrency are the adapter's to keep atomically: a slug is
 * unique, a user is a member of an organization once, an organization never loses its last owner
 * (`updateMemberRole`, `removeMember`), and an invitation is used (deleted) by one caller only.
 */
import type { Awaitable } from "../base-types.js"

/** A role's permissions: resource -> actions (`{ project: ["read", "write"] }`). */
export type RolePermissions = Record<string, string[]>

export interface AdapterOrganization {
  /** Made by Gatehouse (unique). */
  id: string
  /** Unique across organizations: lower-case letters, digits and dashes. */
  slug: string
  name: string
  /** An image URL, or null. */
  logo?: string | null
  /** The app's own data (JSON), or null. */
  metadata?: Record<string, unknown> | null
  /** Roles this organization defines for itself (name -> permissions), or null for none. */
  roles?: Record<string, RolePermissions> | null
  createdAt: Date
}

export interface AdapterMember {
  organizationId: string
  userId: string
  /** `owner`, `admin`, `member`, or a role the configuration or the organization declares. */
  role: string
  /** When the user joined. */
  createdAt: Date
}

/** A user's membership with its organization (`listMemberships`). */
export interface AdapterMembership extends AdapterMember {
  organization: AdapterOrganization
}

/** A pending invitation. Accepted, declined and revoked ones are deleted. */
export interface AdapterInvitation {
  /** Made by Gatehouse (unique). */
  id: string
  organizationId: string
  /** The invited address, lower-cased. */
  email: string
  role: string
  /** SHA-256 of the token in the link (base64url); the token itself is never stored. Unique. */
  tokenHash: string
  /** The user who sent it, or null (server code). */
  invitedBy: string | null
  createdAt: Date
  expires: Date
}

/** The changes `updateOrganization` makes (absent: unchanged; `null` clears an optional field). */
export type OrganizationUpdate = Partial<Pick<AdapterOrganization, "slug" | "name" | "logo" | "metadata" | "roles">>

/** What `updateInvitation` changes (a resend: a new token and expiry). */
export type InvitationUpdate = Partial<Pick<AdapterInvitation, "tokenHash" | "expires" | "role">>

/** The answer of a member change that would leave the organization with no owner: nothing was changed. */
export const LAST_OWNER = "lastOwner"
/** The answer of an organization change to a slug another organization has: nothing was changed. */
export const SLUG_TAKEN = "slugTaken"

declare module "../adapters.js" {
  interface Adapter {
    /**
     * Gatehouse extension (organizations): creates the organization and its first member (an
     * owner) together. Returns `"slugTaken"` (and creates nothing) when the slug is in use.
     */
    createOrganization?(organization: AdapterOrganization, owner: AdapterMember): Awaitable<AdapterOrganization | typeof SLUG_TAKEN>
    /** Gatehouse extension: the organization, or null. */
    getOrganization?(id: string): Awaitable<AdapterOrganization | null>
    /** Gatehouse extension: the organization with this slug, or null. */
    getOrganizationBySlug?(slug: string): Awaitable<AdapterOrganization | null>
    /** Gatehouse extension: applies `changes`; null when there is no such organization, `"slugTaken"` (nothing changed) when the new slug is in use. */
    updateOrganization?(id: string, changes: OrganizationUpdate): Awaitable<AdapterOrganization | typeof SLUG_TAKEN | null>
    /** Gatehouse extension: deletes the organization with its members and invitations. */
    deleteOrganization?(id: string): Awaitable<void>
    /** Gatehouse extension: the organization's members, oldest first. */
    listMembers?(organizationId: string): Awaitable<AdapterMember[]>
    /** Gatehouse extension: the user's memberships with their organizations, oldest first. */
    listMemberships?(userId: string): Awaitable<AdapterMembership[]>
    /** Gatehouse extension: the membership, or null. */
    getMember?(organizationId: string, userId: string): Awaitable<AdapterMember | null>
    /** Gatehouse extension: adds the member; null (nothing changed) when the user is already a member. */
    addMember?(member: AdapterMember): Awaitable<AdapterMember | null>
    /**
     * Gatehouse extension, atomic: sets the member's role. null when not a member; `"lastOwner"`
     * (nothing changed) when the member is the organization's only owner and `role` is not `owner`.
     */
    updateMemberRole?(organizationId: string, userId: string, role: string): Awaitable<AdapterMember | typeof LAST_OWNER | null>
    /** Gatehouse extension, atomic: removes the member and returns it; null when not a member; `"lastOwner"` (nothing removed) for the only owner. */
    removeMember?(organizationId: string, userId: string): Awaitable<AdapterMember | typeof LAST_OWNER | null>
    /** Gatehouse extension: stores the invitation, replacing any pending one of the same organization and address. */
    createInvitation?(invitation: AdapterInvitation): Awaitable<AdapterInvitation>
    /** Gatehouse extension: the pending invitation, or null. */
    getInvitation?(id: string): Awaitable<AdapterInvitation | null>
    /** Gatehouse extension: the pending invitation whose token has this hash, or null. */
    getInvitationByTokenHash?(tokenHash: string): Awaitable<AdapterInvitation | null>
    /** Gatehouse extension: the organization's pending invitations (expired ones included), oldest first. */
    listInvitations?(organizationId: string): Awaitable<AdapterInvitation[]>
    /** Gatehouse extension: applies `changes`; null when there is no such invitation. */
    updateInvitation?(id: string, changes: InvitationUpdate): Awaitable<AdapterInvitation | null>
    /** Gatehouse extension, atomic: deletes the invitation and returns it to exactly one of concurrent callers (null to the others). */
    deleteInvitation?(id: string): Awaitable<AdapterInvitation | null>
  }
}

export const ORGANIZATION_ADAPTER_METHODS = [
  "createOrganization",
  "getOrganization",
  "getOrganizationBySlug",
  "updateOrganization",
  "deleteOrganization",
  "listMembers",
  "listMemberships",
  "getMember",
  "addMember",
  "updateMemberRole",
  "removeMember",
  "createInvitation",
  "getInvitation",
  "getInvitationByTokenHash",
  "listInvitations",
  "updateInvitation",
  "deleteInvitation",
] as const
