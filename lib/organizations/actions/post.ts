/**
 * `POST organizations/<action>` (CSRF-protected), for the built-in pages' forms and for apps and
 * SPAs that draw their own. Each names the organization it acts on (`organizationId`) except
 * `create`, `accept` and `decline` (the invitation's `token`). API calls (Accept:
 * application/json) get JSON, or the error's status; forms go back to the organization page
 * (`?saved=<action>`, or `?error=<type>` for a refusal the page explains). Deleting, leaving and
 * transferring ownership need a recent sign-in (issue #24): a stale one signs in again and comes
 * back to the page. People join by accepting an invitation (their consent, their verified address);
 * adding a user directly is for the app's server code only (`addMember`, helpers.ts).
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json, redirect } from "../../core/response.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { AuthError, UnknownAction } from "../../errors.js"
import { requireHolder, type Holder } from "../../session/assurance.js"
import { storageOf } from "../access.js"
import { createOrganization, deleteOrganization, updateOrganization } from "../manage.js"
import { changeRole, leaveOrganization, removeMember, transferOwnership } from "../members.js"
import { acceptInvitation, declineInvitation, invite, resendInvitation, revokeInvitation } from "../invitations.js"
import { deleteOwnRole, setOwnRole } from "../own-roles.js"
import { switchOrganization } from "../switch.js"
import { accountPageUrl, field, mailSite, organizationPageUrl } from "./common.js"

/** The actions that need a recent sign-in. */
const NEEDS_RECENT: ReadonlySet<string> = new Set(["delete", "leave", "transfer"])

/** Refusals the organization page explains in place (anything else takes its usual outcome). */
const EXPLAINED = new Set(["LastOwner", "SlugTaken", "AlreadyMember", "UnknownRole", "RoleInUse", "InvalidRequest", "MemberNotFound", "PermissionDenied", "InvitationInvalid"])

/** What a form is sent to after the action: a page, or the organization's page with `saved`. */
type Next = { json: Record<string, unknown>; page?: string; slug?: string }

async function perform(ctx: RequestContext, holder: Holder, action: string): Promise<Next> {
  const { config } = ctx
  const actor = { userId: holder.user.id }
  const organizationId = field(ctx, "organizationId")
  switch (action) {
    case "create": {
      const organization = await createOrganization(config, actor.userId, { name: field(ctx, "name"), slug: field(ctx, "slug"), logo: field(ctx, "logo"), metadata: field(ctx, "metadata") }, actor)
      const active = await switchOrganization(ctx, actor.userId, organization.id)
      return { json: { organization, active }, slug: organization.slug }
    }
    case "update": {
      const organization = await updateOrganization(config, organizationId, { name: field(ctx, "name"), slug: field(ctx, "slug"), logo: field(ctx, "logo"), metadata: field(ctx, "metadata") }, actor)
      return { json: { organization }, slug: organization.slug }
    }
    case "delete":
      await deleteOrganization(config, organizationId, actor)
      return { json: { deleted: true }, page: accountPageUrl(ctx, { saved: "organization-deleted" }) }
    case "switch": {
      const active = await switchOrganization(ctx, actor.userId, organizationId)
      const back = field(ctx, "callbackUrl")
      // A form may come back where it was (the account page); only to this site (resolveCallbackUrl).
      return { json: { active }, slug: active.slug, page: typeof back === "string" && back ? await resolveCallbackUrl(ctx, back) : undefined }
    }
    case "leave":
      await leaveOrganization(config, organizationId, actor)
      return { json: { left: true }, page: accountPageUrl(ctx, { saved: "organization-left" }) }
    case "transfer":
      await transferOwnership(config, organizationId, field(ctx, "userId"), actor)
      return { json: { transferred: true } }
    case "remove-member":
      await removeMember(config, organizationId, field(ctx, "userId"), actor)
      return { json: { removed: true } }
    case "role":
      return { json: { member: await changeRole(config, organizationId, field(ctx, "userId"), field(ctx, "role"), actor) } }
    case "invite": {
      const sent = await invite(config, mailSite(ctx), organizationId, { email: field(ctx, "email"), role: field(ctx, "role") }, actor)
      return { json: { invitation: sent.invitation, mailed: sent.mailed } }
    }
    case "resend": {
      const sent = await resendInvitation(config, mailSite(ctx), organizationId, field(ctx, "invitationId"), actor)
      return { json: { invitation: sent.invitation, mailed: sent.mailed } }
    }
    case "revoke":
      await revokeInvitation(config, organizationId, field(ctx, "invitationId"), actor)
      return { json: { revoked: true } }
    case "accept": {
      const accepted = await acceptInvitation(config, field(ctx, "token"), actor)
      const active = await switchOrganization(ctx, actor.userId, accepted.organization.id)
      return { json: { active, member: accepted.member }, slug: accepted.organization.slug }
    }
    case "decline":
      await declineInvitation(config, field(ctx, "token"), actor)
      return { json: { declined: true }, page: accountPageUrl(ctx, { saved: "invitation-declined" }) }
    case "set-role":
      return { json: { roles: await setOwnRole(config, organizationId, field(ctx, "name"), field(ctx, "permissions") ?? field(ctx, "permission"), actor) } }
    case "delete-role":
      return { json: { roles: await deleteOwnRole(config, organizationId, field(ctx, "name"), actor) } }
    default:
      throw new UnknownAction(`No action at organizations/${action}`)
  }
}

/** The organization page of the organization the form named (for its redirect), if the user still sees it. */
async function pageOf(ctx: RequestContext, organizationId: unknown): Promise<string | undefined> {
  if (typeof organizationId !== "string" || !organizationId) return undefined
  try {
    const organization = await storageOf(ctx.config).getOrganization(organizationId)
    return organization ? organizationPageUrl(ctx, organization.slug) : undefined
  } catch {
    return undefined
  }
}

export async function organizationsPost(ctx: RequestContext): Promise<ResponseInternal> {
  const action = ctx.request.providerId ?? ""
  storageOf(ctx.config)
  const organizationId = field(ctx, "organizationId")
  // A refused create goes back to the create form (the organization page without a slug).
  const page = action === "create" ? `${ctx.baseUrl}/organization` : await pageOf(ctx, organizationId)
  // A stale sign-in: the sign-in page, then back to the organization page.
  if (NEEDS_RECENT.has(action) && page) ctx.callbackUrl = page
  let next: Next
  try {
    const holder = await requireHolder(ctx, NEEDS_RECENT.has(action) ? "recent" : "session", `organizations/${action}`)
    next = await perform(ctx, holder, action)
  } catch (error) {
    if (!ctx.wantsJson && !ctx.request.serverAction && page && error instanceof AuthError && EXPLAINED.has(error.type)) {
      ctx.config.logger.debug(`organizations/${action} refused: ${error.type}`)
      return redirect(`${page}${page.includes("?") ? "&" : "?"}${new URLSearchParams({ error: error.type })}`)
    }
    throw error
  }
  if (ctx.wantsJson || ctx.request.serverAction) return json(next.json)
  const goTo = next.page ?? (next.slug ? organizationPageUrl(ctx, next.slug, { saved: action }) : page ? `${page}?${new URLSearchParams({ saved: action })}` : accountPageUrl(ctx))
  return redirect(goTo)
}
