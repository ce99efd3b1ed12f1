/**
 * The end of every sign-in through a connection, SAML or OIDC (issue #28): the person the
 * identity provider vouched for becomes a stored user (just-in-time), joins the connection's
 * organization, and signs in like any other sign-in (the `signIn` callback, two-factor, the
 * session, the redirect: lib/actions/callback/login.ts).
 * - Identity is the (connection, subject) pair: the account `sso-<connection id>`.
 * - The address counts as proved only when its domain is verified by this organization: then an
 *   existing user with the address is linked (an unproven one reclaimed, as an OAuth provider that
 *   vouches does); otherwise a user with that address is refused (`SsoAccountNotLinked`), and a
 *   new user is created with the address unproven.
 * - Membership: a new member gets the role the groups map to (the connection's mapping), else the
 *   organization's default role; an existing member's role follows the groups when the mapping
 *   names one for them (never an owner's: owners are changed by owners).
 */
import type { Account, ResponseInternal } from "../types.js"
import type { AdapterAccount, AdapterUser } from "../adapters.js"
import type { RequestContext } from "../core/context.js"
import { fireEvent } from "../core/events.js"
import { authorizeSignIn, completeSignIn, type SignInResult } from "../actions/callback/login.js"
import { createUserWithAccount } from "../actions/callback/users.js"
import { claimProvenAddress } from "../linking/unproven-user.js"
import { settingsOf, storageOf } from "../organizations/access.js"
import { changed } from "../organizations/changes.js"
import { switchOrganization } from "../organizations/switch.js"
import { grantOf } from "../organizations/roles.js"
import { LAST_OWNER } from "../organizations/adapter.js"
import type { AdapterSsoConnection } from "./adapter.js"
import { SsoAccountNotLinked, SsoResponseInvalid, SsoUserDeactivated } from "./errors.js"
import type { SsoProfile } from "./profile.js"
import { domainOf } from "./domains-shared.js"
import { ssoStorage } from "./access.js"
import { redirect } from "../core/response.js"
import { audit, reasonOf } from "../audit/emit.js"

/** The provider id of a connection's accounts (`sso-<connection id>`). */
export function ssoProviderId(connection: Pick<AdapterSsoConnection, "id">): string {
  return `sso-${connection.id}`
}

/** The role the groups map to, when the mapping names one that exists in the organization. */
function mappedRole(ctx: RequestContext, connection: AdapterSsoConnection, groups: readonly string[] | undefined, orgRoles: Parameters<typeof grantOf>[2]): string | undefined {
  const roles = connection.mapping?.roles
  if (!roles || !groups?.length) return undefined
  const settings = settingsOf(ctx.config)
  for (const group of groups) {
    const role = roles[group]
    if (role && role !== "owner" && grantOf(settings.book, role, orgRoles, settings.customRoles)) return role
  }
  return undefined
}

async function storedUser(ctx: RequestContext, connection: AdapterSsoConnection, profile: SsoProfile, account: Account, proven: boolean): Promise<{ user: AdapterUser; isNewUser: boolean }> {
  const adapter = ssoStorage(ctx.config)
  const linked = await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
  if (linked) return { user: linked, isNewUser: false }
  const email = profile.email
  if (!email) throw new SsoResponseInvalid(`The identity provider of connection ${connection.id} sent no email address`)
  const byEmail = await adapter.getUserByEmail(email)
  if (byEmail) {
    if (!proven) throw new SsoAccountNotLinked(`A user with ${email} exists, and the organization has not verified the domain of that address`)
    const claimed = await claimProvenAddress(ctx, byEmail, account)
    let user = claimed.user
    if (!user.emailVerified) {
      user = await adapter.updateUser({ id: user.id, emailVerified: new Date() })
      await fireEvent(ctx.config, "updateUser", { user })
    }
    const stored = { ...account, userId: user.id } as unknown as AdapterAccount
    await adapter.linkAccount(stored)
    await fireEvent(ctx.config, "linkAccount", { user, account: stored as unknown as Account, profile: profile.attributes })
    return { user, isNewUser: false }
  }
  const created = await createUserWithAccount(ctx, { email, name: profile.name ?? null }, account, profile.attributes, proven ? new Date() : null)
  return { user: created.user, isNewUser: created.isNewUser }
}

/** Adds the user to the connection's organization, or brings their role in line with their groups. */
async function joinOrganization(ctx: RequestContext, connection: AdapterSsoConnection, userId: string, groups: readonly string[] | undefined): Promise<void> {
  const storage = storageOf(ctx.config)
  const organization = await storage.getOrganization(connection.organizationId)
  if (!organization) throw new SsoResponseInvalid(`The organization of connection ${connection.id} no longer exists`)
  const role = mappedRole(ctx, connection, groups, organization.roles)
  const member = await storage.getMember(organization.id, userId)
  // A person the organization's directory deactivated (SCIM, issue #29) does not sign in through it.
  if (ctx.config.scim && (await (await import("../scim/provision.js")).scimBlocksSignIn(ctx.config, organization.id, userId))) {
    throw new SsoUserDeactivated(`The directory of organization ${organization.id} deactivated this user`)
  }
  const base = { organizationId: organization.id, userId, actorId: userId }
  if (!member) {
    const added = await storage.addMember({ organizationId: organization.id, userId, role: role ?? settingsOf(ctx.config).defaultRole, createdAt: new Date() })
    if (added) await changed(ctx.config, { ...base, type: "member.added", role: added.role }, [userId])
    return
  }
  if (role && member.role !== role && member.role !== "owner") {
    const updated = await storage.updateMemberRole(organization.id, userId, role)
    if (updated && updated !== LAST_OWNER) await changed(ctx.config, { ...base, type: "member.role_changed", role, previousRole: member.role }, [userId])
  }
}

/** Where SP-initiated logout finds the NameID format and SessionIndex of a person's SAML sign-in. */
export function samlSessionKey(connectionId: string, subject: string): string {
  return `sso:saml-session:${connectionId}:${subject}`
}

/** Every refusal after the identity provider's answer passed (a link refused, the signIn callback) is audited with the connection too. */
export async function completeSsoSignIn(ctx: RequestContext, connection: AdapterSsoConnection, profile: SsoProfile, callbackUrl: string): Promise<ResponseInternal> {
  try {
    return await signInThrough(ctx, connection, profile, callbackUrl)
  } catch (error) {
    audit(ctx.config, { type: "sso.refused", outcome: "failure", reason: reasonOf(error), connectionId: connection.id, organizationId: connection.organizationId })
    throw error
  }
}

async function signInThrough(ctx: RequestContext, connection: AdapterSsoConnection, profile: SsoProfile, callbackUrl: string): Promise<ResponseInternal> {
  // A SAML connection's accounts are of type "saml" (stored as a string like any other type).
  const account = { provider: ssoProviderId(connection), providerAccountId: profile.subject, type: connection.type === "saml" ? "saml" : "oidc" } as unknown as Account
  const result: SignInResult = { user: { id: profile.subject, email: profile.email ?? null, name: profile.name ?? null }, account, profile: profile.attributes }
  // The app's signIn callback decides before anything is stored, as for an OAuth sign-in.
  const elsewhere = await authorizeSignIn(ctx, result)
  if (elsewhere) return redirect(elsewhere)
  const domain = profile.email ? domainOf(profile.email) : undefined
  const verified = domain ? await ssoStorage(ctx.config).getVerifiedDomain(domain) : null
  const proven = verified?.organizationId === connection.organizationId
  const stored = await storedUser(ctx, connection, profile, account, proven)
  result.user = stored.user
  result.account = { ...account, userId: stored.user.id } as Account
  result.isNewUser = stored.isNewUser
  await joinOrganization(ctx, connection, stored.user.id, profile.groups)
  await switchOrganization(ctx, stored.user.id, connection.organizationId)
  // Single logout names the IdP's session: kept as long as a session lives.
  if (profile.sessionIndex || profile.nameIdFormat) {
    await ctx.config.store.putValue?.(samlSessionKey(connection.id, profile.subject), JSON.stringify({ sessionIndex: profile.sessionIndex ?? null, nameIdFormat: profile.nameIdFormat ?? null }), ctx.config.session.maxAge)
  }
  return completeSignIn(ctx, result, callbackUrl)
}
