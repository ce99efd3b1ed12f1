/**
 * Invitations by email (issue #27): single use, hashed at rest (only SHA-256 of the link's token is
 * stored), expiring (`invitationMaxAge`, 7 days by default), resendable (a new link; the old one
 * stops working) and revocable. Accepted or declined only by a signed-in user whose *verified*
 * address is the invited one, so a forwarded link lets nobody else in; whoever has no account
 * signs up from the invitation page (the address is filled in) and comes back to accept it.
 */
import { createHash } from "node:crypto"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { randomSlice } from "../crypto/random.js"
import type { AdapterInvitation, AdapterMember, AdapterOrganization } from "./adapter.js"
import { demand, mayHandOut, roleIn, settingsOf, standing, storageOf, type Actor } from "./access.js"
import { changed } from "./changes.js"
import { AlreadyMember, InvitationInvalid, InvitationMismatch } from "./errors.js"
import { checkEmail, newId } from "./fields.js"
import { sendInvitationMail, type MailSite } from "./invitation-mail.js"
import { InvalidRequest } from "../errors.js"

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url")
}

export function invitationUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/invitation?${new URLSearchParams({ token })}`
}

/** What the inviter is told: the invitation (never its token hash) and whether a mail went out. */
export interface SentInvitation {
  invitation: PublicInvitation
  mailed: boolean
  /** The link, for server code (the app may deliver it itself); never in a JSON answer. */
  url: string
}

export type PublicInvitation = Omit<AdapterInvitation, "tokenHash"> & { expired: boolean }

export function publicInvitation(invitation: AdapterInvitation, now = Date.now()): PublicInvitation {
  const { tokenHash: _hidden, ...rest } = invitation
  return { ...rest, expired: invitation.expires.getTime() <= now }
}

async function inviterOf(config: ResolvedConfig, actor: Actor): Promise<{ name: string | null; email: string | null } | null> {
  if (!actor) return null
  const user = await storageOf(config).getUser(actor.userId)
  return user ? { name: user.name ?? null, email: user.email ?? null } : null
}

async function issue(config: ResolvedConfig, site: MailSite, invitation: AdapterInvitation, organization: AdapterOrganization, actor: Actor, write: (record: AdapterInvitation) => Promise<AdapterInvitation | null>): Promise<SentInvitation> {
  const token = randomSlice(32).toString("base64url")
  const record = { ...invitation, tokenHash: hashToken(token), expires: new Date(Date.now() + settingsOf(config).invitationMaxAge * 1000) }
  const stored = await write(record)
  if (!stored) throw new InvitationInvalid("The invitation was revoked meanwhile")
  const url = invitationUrl(site.baseUrl, token)
  let mailed = false
  try {
    mailed = await sendInvitationMail(config, site, stored, organization, await inviterOf(config, actor), url)
  } catch (error) {
    // The invitation stands (it can be sent again); the inviter is told no mail went out.
    config.logger.error(error as Error)
  }
  return { invitation: publicInvitation(stored), mailed, url }
}

export async function invite(config: ResolvedConfig, site: MailSite, organizationId: unknown, input: { email?: unknown; role?: unknown }, actor: Actor): Promise<SentInvitation> {
  const place = await standing(config, organizationId, actor)
  demand(place, "invitation:create")
  const email = checkEmail(input.email)
  const grant = roleIn(config, place.organization, input.role === undefined || input.role === "" ? settingsOf(config).defaultRole : input.role)
  mayHandOut(place, grant)
  const storage = storageOf(config)
  const existing = await storage.getUserByEmail(email)
  if (existing && (await storage.getMember(place.organization.id, existing.id))) throw new AlreadyMember("Someone with that address is a member already")
  const draft: AdapterInvitation = { id: newId(), organizationId: place.organization.id, email, role: grant.role, tokenHash: "", invitedBy: actor?.userId ?? null, createdAt: new Date(), expires: new Date() }
  const sent = await issue(config, site, draft, place.organization, actor, async (record) => storage.createInvitation(record))
  await changed(config, { type: "invitation.sent", organizationId: place.organization.id, actorId: actor?.userId, email, role: grant.role, invitationId: sent.invitation.id })
  return sent
}

/** The organization's invitation, or InvitationInvalid (another organization's id reads as unknown). */
async function invitationIn(config: ResolvedConfig, organizationId: string, invitationId: unknown): Promise<AdapterInvitation> {
  if (typeof invitationId !== "string" || !invitationId) throw new InvalidRequest("The request names no invitation (invitationId)")
  const invitation = await storageOf(config).getInvitation(invitationId)
  if (!invitation || invitation.organizationId !== organizationId) throw new InvitationInvalid("No such invitation in this organization")
  return invitation
}

/** A new link and expiry (the old link stops working), mailed again. */
export async function resendInvitation(config: ResolvedConfig, site: MailSite, organizationId: unknown, invitationId: unknown, actor: Actor): Promise<SentInvitation> {
  const place = await standing(config, organizationId, actor)
  demand(place, "invitation:create")
  const invitation = await invitationIn(config, place.organization.id, invitationId)
  mayHandOut(place, roleIn(config, place.organization, invitation.role))
  const sent = await issue(config, site, invitation, place.organization, actor, async (record) => storageOf(config).updateInvitation(record.id, { tokenHash: record.tokenHash, expires: record.expires }))
  await changed(config, { type: "invitation.resent", organizationId: place.organization.id, actorId: actor?.userId, email: invitation.email, invitationId: invitation.id })
  return sent
}

export async function revokeInvitation(config: ResolvedConfig, organizationId: unknown, invitationId: unknown, actor: Actor): Promise<void> {
  const place = await standing(config, organizationId, actor)
  demand(place, "invitation:revoke")
  const invitation = await invitationIn(config, place.organization.id, invitationId)
  const removed = await storageOf(config).deleteInvitation(invitation.id)
  if (!removed) throw new InvitationInvalid("The invitation was used or revoked meanwhile")
  await changed(config, { type: "invitation.revoked", organizationId: place.organization.id, actorId: actor?.userId, email: invitation.email, invitationId: invitation.id })
}

export async function listInvitations(config: ResolvedConfig, organizationId: unknown, actor: Actor): Promise<PublicInvitation[]> {
  const place = await standing(config, organizationId, actor)
  demand(place, "invitation:create")
  const now = Date.now()
  return (await storageOf(config).listInvitations(place.organization.id)).map((invitation) => publicInvitation(invitation, now))
}

export interface OpenedInvitation {
  invitation: AdapterInvitation
  organization: AdapterOrganization
}

/** The pending, unexpired invitation of a link's token, with its organization; InvitationInvalid otherwise. */
export async function openInvitation(config: ResolvedConfig, token: unknown): Promise<OpenedInvitation> {
  if (typeof token !== "string" || token.length < 20 || token.length > 100) throw new InvitationInvalid("The invitation link is incomplete")
  const storage = storageOf(config)
  const invitation = await storage.getInvitationByTokenHash(hashToken(token))
  if (!invitation || invitation.expires.getTime() <= Date.now()) throw new InvitationInvalid("The invitation link is unknown, used, revoked or expired")
  const organization = await storage.getOrganization(invitation.organizationId)
  if (!organization) throw new InvitationInvalid("The organization no longer exists")
  return { invitation, organization }
}

/** The signed-in user may answer this invitation: their address is the invited one, and verified. */
async function answerable(config: ResolvedConfig, opened: OpenedInvitation, userId: string): Promise<void> {
  const user = await storageOf(config).getUser(userId)
  const email = typeof user?.email === "string" ? user.email.trim().toLowerCase() : ""
  if (!user || email !== opened.invitation.email) throw new InvitationMismatch("This invitation is for another address than the one you are signed in with")
  if (!user.emailVerified) throw new InvitationMismatch("Your address is not verified yet: verify it, then accept the invitation")
}

/** Single use: of concurrent answers to one invitation, one takes it. */
async function take(config: ResolvedConfig, opened: OpenedInvitation): Promise<AdapterInvitation> {
  const taken = await storageOf(config).deleteInvitation(opened.invitation.id)
  if (!taken) throw new InvitationInvalid("The invitation was used or revoked meanwhile")
  return taken
}

export async function acceptInvitation(config: ResolvedConfig, token: unknown, actor: { userId: string }): Promise<{ organization: AdapterOrganization; member: AdapterMember }> {
  const opened = await openInvitation(config, token)
  await answerable(config, opened, actor.userId)
  const invitation = await take(config, opened)
  const organization = opened.organization
  // A role the organization no longer has falls back to the default one.
  const role = (() => {
    try {
      return roleIn(config, organization, invitation.role).role
    } catch {
      return settingsOf(config).defaultRole
    }
  })()
  const member = await storageOf(config).addMember({ organizationId: organization.id, userId: actor.userId, role, createdAt: new Date() })
  if (!member) throw new AlreadyMember("You are a member of this organization already")
  const base = { organizationId: organization.id, actorId: actor.userId, userId: actor.userId, role, email: invitation.email, invitationId: invitation.id }
  await changed(config, { ...base, type: "invitation.accepted" })
  await changed(config, { ...base, type: "member.added" }, [actor.userId])
  return { organization, member }
}

export async function declineInvitation(config: ResolvedConfig, token: unknown, actor: { userId: string }): Promise<void> {
  const opened = await openInvitation(config, token)
  await answerable(config, opened, actor.userId)
  const invitation = await take(config, opened)
  await changed(config, { type: "invitation.declined", organizationId: invitation.organizationId, actorId: actor.userId, email: invitation.email, invitationId: invitation.id })
}
