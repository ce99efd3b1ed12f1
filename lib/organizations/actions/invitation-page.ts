/**
 * `GET invitation?token=`: the invitation page (issue #27). It names the organization, the invited
 * address and the role, and offers what fits who is looking: signed out, sign in (the address
 * filled in) or create an account, both coming back here; signed in with the invited, verified
 * address, Accept and Decline (POST forms with the CSRF token); signed in otherwise, why it cannot
 * be accepted and a way to sign out. An unknown, used, revoked or expired link: a page saying so
 * (410). A GET never changes anything.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { pageUrl } from "../../core/pages-url.js"
import { queryParam } from "../../core/request.js"
import { AuthError, SessionRequired } from "../../errors.js"
import { requireHolder, type Holder } from "../../session/assurance.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { isPasswordProvider } from "../../password/actions/common.js"
import { formatDateTime } from "../../devices/when.js"
import { storageOf } from "../access.js"
import { invitationUrl, openInvitation, type OpenedInvitation } from "../invitations.js"
import { roleLabel } from "../page-texts.js"
import { INVITATION_PAGE } from "../pages.js"
import { organizationPageUrl } from "./common.js"

type View = "signedOut" | "answer" | "mismatch" | "unverified" | "member"

/** The signed-in user, or null (the read's cookies go on the answer either way). */
async function viewer(ctx: RequestContext): Promise<Holder | null> {
  try {
    return await requireHolder(ctx, "session", "The invitation page")
  } catch (error) {
    if (error instanceof SessionRequired) return null
    throw error
  }
}

async function viewOf(ctx: RequestContext, opened: OpenedInvitation, holder: Holder | null): Promise<View> {
  if (!holder) return "signedOut"
  if (await storageOf(ctx.config).getMember(opened.organization.id, holder.user.id)) return "member"
  const email = typeof holder.user.email === "string" ? holder.user.email.trim().toLowerCase() : ""
  if (email !== opened.invitation.email) return "mismatch"
  return holder.user.emailVerified ? "answer" : "unverified"
}

export async function invitationPage(ctx: RequestContext): Promise<ResponseInternal> {
  storageOf(ctx.config)
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const token = queryParam(ctx.request, "token")
  let opened: OpenedInvitation
  try {
    opened = await openInvitation(ctx.config, token)
  } catch (error) {
    if (!(error instanceof AuthError) || error.type !== "InvitationInvalid") throw error
    return pageResponse(ctx, INVITATION_PAGE, t["organizations.invitation.heading"], { view: "invalid" }, 410, chosen)
  }
  const holder = await viewer(ctx)
  const view = await viewOf(ctx, opened, holder)
  const here = invitationUrl(ctx.baseUrl, token!)
  const email = opened.invitation.email
  const model = {
    view,
    organization: opened.organization.name,
    email,
    current: holder?.user.email ?? "",
    role: roleLabel(t, opened.invitation.role),
    expires: formatDateTime(opened.invitation.expires, chosen.locale.tag),
    csrfToken: ensureCsrfToken(ctx),
    token,
    action: `${ctx.baseUrl}/organizations`,
    signInUrl: pageUrl(ctx, "signIn", new URLSearchParams({ callbackUrl: here, login_hint: email })),
    signUpUrl: ctx.config.providers.list.some(isPasswordProvider) ? pageUrl(ctx, "signUp", new URLSearchParams({ callbackUrl: here, email })) : undefined,
    signOutUrl: pageUrl(ctx, "signOut", new URLSearchParams({ callbackUrl: here })),
    organizationUrl: organizationPageUrl(ctx, opened.organization.slug),
  }
  return pageResponse(ctx, INVITATION_PAGE, t["organizations.invitation.heading"], model, 200, chosen)
}
