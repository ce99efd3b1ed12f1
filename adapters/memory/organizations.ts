/**
 * The memory adapter's organization methods (issue #27): organizations by id, members keyed by
 * (organization, user), pending invitations by id. Every method checks and writes without
 * awaiting in between, so the rules that must hold under concurrency (a unique slug, one
 * membership per user, never no owner, an invitation used once) hold as they would in a database.
 * Records are copied in and out: callers never hold the stored objects.
 */
import type { Adapter, AdapterInvitation, AdapterMember, AdapterOrganization, AdapterUser } from "../../lib/adapters.js"
import { LAST_OWNER, SLUG_TAKEN } from "../../lib/organizations/adapter.js"
import { forgetOrganizationSso, type SsoMaps } from "./sso.js"
import { forgetOrganizationScim, type ScimMaps } from "./scim.js"
import type { ORGANIZATION_ADAPTER_METHODS } from "../../lib/organizations/adapter.js"

export interface OrganizationMaps {
  users: Map<string, AdapterUser>
  organizations: Map<string, AdapterOrganization>
  /** `[organizationId, userId]` as JSON -> the membership. */
  members: Map<string, AdapterMember>
  invitations: Map<string, AdapterInvitation>
}

type Put = <V>(map: Map<string, V>, key: string, value: V) => void
type Remove = <V>(map: Map<string, V>, key: string) => void
type OrganizationMethods = Required<Pick<Adapter, (typeof ORGANIZATION_ADAPTER_METHODS)[number]>>

const OWNER = "owner"
const memberKey = (organizationId: string, userId: string) => JSON.stringify([organizationId, userId])
const json = <T>(value: T | null | undefined): T | null => (value === null || value === undefined ? null : (JSON.parse(JSON.stringify(value)) as T))
const byAge = (a: { createdAt: Date }, b: { createdAt: Date }) => a.createdAt.getTime() - b.createdAt.getTime()

function organizationCopy(organization: AdapterOrganization): AdapterOrganization {
  return {
    id: organization.id,
    slug: organization.slug,
    name: organization.name,
    logo: organization.logo ?? null,
    metadata: json(organization.metadata),
    roles: json(organization.roles),
    createdAt: new Date(organization.createdAt.getTime()),
  }
}

function memberCopy(member: AdapterMember): AdapterMember {
  return { organizationId: member.organizationId, userId: member.userId, role: member.role, createdAt: new Date(member.createdAt.getTime()) }
}

function invitationCopy(invitation: AdapterInvitation): AdapterInvitation {
  return {
    id: invitation.id,
    organizationId: invitation.organizationId,
    email: invitation.email,
    role: invitation.role,
    tokenHash: invitation.tokenHash,
    invitedBy: invitation.invitedBy ?? null,
    createdAt: new Date(invitation.createdAt.getTime()),
    expires: new Date(invitation.expires.getTime()),
  }
}

/** Removes the user's memberships (deleteUser; the core has refused to delete a last owner before). */
export function forgetMemberships(maps: OrganizationMaps, remove: Remove, userId: string): void {
  for (const [key, member] of maps.members) if (member.userId === userId) remove(maps.members, key)
}

export function organizationMethods(maps: OrganizationMaps & SsoMaps & ScimMaps, put: Put, remove: Remove): OrganizationMethods {
  const bySlug = (slug: string) => [...maps.organizations.values()].find((organization) => organization.slug === slug)
  const membersOf = (organizationId: string) => [...maps.members.values()].filter((member) => member.organizationId === organizationId)
  /** True when `userId` is the organization's only owner: changing or removing it would leave none. */
  const isLastOwner = (organizationId: string, userId: string) => {
    const owners = membersOf(organizationId).filter((member) => member.role === OWNER)
    return owners.length === 1 && owners[0]?.userId === userId
  }
  const invitationFor = (organizationId: string, email: string) =>
    [...maps.invitations.values()].find((invitation) => invitation.organizationId === organizationId && invitation.email === email)

  return {
    async createOrganization(organization, owner) {
      if (bySlug(organization.slug)) return SLUG_TAKEN
      if (maps.organizations.has(organization.id)) throw new Error(`an organization with id ${organization.id} exists`)
      if (!maps.users.has(owner.userId)) throw new Error(`no user with id ${owner.userId}`)
      put(maps.organizations, organization.id, organizationCopy(organization))
      put(maps.members, memberKey(organization.id, owner.userId), memberCopy({ ...owner, organizationId: organization.id }))
      return organizationCopy(organization)
    },
    async getOrganization(id) {
      const found = maps.organizations.get(id)
      return found ? organizationCopy(found) : null
    },
    async getOrganizationBySlug(slug) {
      const found = bySlug(slug)
      return found ? organizationCopy(found) : null
    },
    async updateOrganization(id, changes) {
      const current = maps.organizations.get(id)
      if (!current) return null
      if (changes.slug !== undefined && changes.slug !== current.slug && bySlug(changes.slug)) return SLUG_TAKEN
      const next: AdapterOrganization = { ...current }
      if (changes.slug !== undefined) next.slug = changes.slug
      if (changes.name !== undefined) next.name = changes.name
      if (changes.logo !== undefined) next.logo = changes.logo
      if (changes.metadata !== undefined) next.metadata = changes.metadata
      if (changes.roles !== undefined) next.roles = changes.roles
      put(maps.organizations, id, organizationCopy(next))
      return organizationCopy(next)
    },
    async deleteOrganization(id) {
      for (const [key, member] of maps.members) if (member.organizationId === id) remove(maps.members, key)
      for (const [key, invitation] of maps.invitations) if (invitation.organizationId === id) remove(maps.invitations, key)
      // Its SSO connections and domains (issue #28) go with it.
      forgetOrganizationSso(maps, remove, id)
      // And its SCIM tokens, provisioned users and groups (issue #29).
      forgetOrganizationScim(maps, remove, id)
      remove(maps.organizations, id)
    },

    async listMembers(organizationId) {
      return membersOf(organizationId).sort(byAge).map(memberCopy)
    },
    async listMemberships(userId) {
      const memberships = []
      for (const member of [...maps.members.values()].filter((found) => found.userId === userId).sort(byAge)) {
        const organization = maps.organizations.get(member.organizationId)
        if (organization) memberships.push({ ...memberCopy(member), organization: organizationCopy(organization) })
      }
      return memberships
    },
    async getMember(organizationId, userId) {
      const found = maps.members.get(memberKey(organizationId, userId))
      return found ? memberCopy(found) : null
    },
    async addMember(member) {
      const key = memberKey(member.organizationId, member.userId)
      if (maps.members.has(key)) return null
      if (!maps.organizations.has(member.organizationId)) throw new Error(`no organization with id ${member.organizationId}`)
      if (!maps.users.has(member.userId)) throw new Error(`no user with id ${member.userId}`)
      put(maps.members, key, memberCopy(member))
      return memberCopy(member)
    },
    async updateMemberRole(organizationId, userId, role) {
      const key = memberKey(organizationId, userId)
      const current = maps.members.get(key)
      if (!current) return null
      if (role !== OWNER && isLastOwner(organizationId, userId)) return LAST_OWNER
      const next = { ...current, role }
      put(maps.members, key, next)
      return memberCopy(next)
    },
    async removeMember(organizationId, userId) {
      const key = memberKey(organizationId, userId)
      const current = maps.members.get(key)
      if (!current) return null
      if (isLastOwner(organizationId, userId)) return LAST_OWNER
      remove(maps.members, key)
      return memberCopy(current)
    },

    async createInvitation(invitation) {
      const pending = invitationFor(invitation.organizationId, invitation.email)
      if (pending) remove(maps.invitations, pending.id)
      put(maps.invitations, invitation.id, invitationCopy(invitation))
      return invitationCopy(invitation)
    },
    async getInvitation(id) {
      const found = maps.invitations.get(id)
      return found ? invitationCopy(found) : null
    },
    async getInvitationByTokenHash(tokenHash) {
      const found = [...maps.invitations.values()].find((invitation) => invitation.tokenHash === tokenHash)
      return found ? invitationCopy(found) : null
    },
    async listInvitations(organizationId) {
      return [...maps.invitations.values()].filter((invitation) => invitation.organizationId === organizationId).sort(byAge).map(invitationCopy)
    },
    async updateInvitation(id, changes) {
      const current = maps.invitations.get(id)
      if (!current) return null
      const next = { ...current }
      if (changes.tokenHash !== undefined) next.tokenHash = changes.tokenHash
      if (changes.expires !== undefined) next.expires = changes.expires
      if (changes.role !== undefined) next.role = changes.role
      put(maps.invitations, id, invitationCopy(next))
      return invitationCopy(next)
    },
    async deleteInvitation(id) {
      // Synchronous between lookup and delete: of concurrent callers, exactly one gets it.
      const found = maps.invitations.get(id)
      if (!found) return null
      remove(maps.invitations, id)
      return invitationCopy(found)
    },
  }
}
