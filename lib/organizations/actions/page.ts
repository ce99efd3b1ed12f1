/**
 * `GET organization[/<slug>]`: the organization page (issue #27). Signed out: the sign-in page,
 * coming back here. Without a slug: the active organization's page, or, for a user in no
 * organization, a page to create one (when `allowCreate` lets them) or saying how to join one.
 * A slug the user is not a member of reads as OrganizationNotFound (the error page, 404), the same
 * as a slug nobody has. Every change is a POST form with the CSRF token (actions/post.ts); nothing
 * here changes on a GET.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { queryParam } from "../../core/request.js"
import { redirect } from "../../core/response.js"
import { holderOrSignIn, isHolder, type Holder } from "../../session/assurance.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { settingsOf, storageOf } from "../access.js"
import { organizationDetails } from "../details.js"
import { OrganizationNotFound } from "../errors.js"
import { userMemberships } from "../memberships.js"
import { activeOf, organizationCookieName } from "../session-fact.js"
import { organizationModel } from "../page-model.js"
import { statusOf } from "../page-texts.js"
import { NO_ORGANIZATION_PAGE, ORGANIZATION_PAGE } from "../pages.js"
import { accountPageUrl, organizationPageUrl } from "./common.js"

/** The id of this browser's active organization for the holder (the membership cache: no round trip when fresh). */
async function activeId(ctx: RequestContext, holder: Holder): Promise<string | null> {
  const memberships = await userMemberships(ctx.config, settingsOf(ctx.config), holder.user.id)
  return activeOf(memberships, ctx.request.cookies[organizationCookieName(ctx.cookies.sessionToken.options.secure === true)])?.id ?? null
}

/** The query a form came back with, kept across the redirect to the active organization's page. */
function statusQuery(ctx: RequestContext): Record<string, string> | undefined {
  const saved = queryParam(ctx.request, "saved")
  const error = queryParam(ctx.request, "error")
  return error ? { error } : saved ? { saved } : undefined
}

/** A user in no organization: the form to create one, or how to join one. */
async function noOrganizationPage(ctx: RequestContext, holder: Holder): Promise<ResponseInternal> {
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const mayCreate = await settingsOf(ctx.config).allowCreate(holder.user)
  const model = {
    csrfToken: ensureCsrfToken(ctx),
    action: `${ctx.baseUrl}/organizations/create`,
    accountUrl: accountPageUrl(ctx),
    mayCreate,
    status: statusOf(t, undefined, queryParam(ctx.request, "error")),
  }
  return pageResponse(ctx, NO_ORGANIZATION_PAGE, t["organizations.none.heading"], model, 200, chosen)
}

export async function organizationPage(ctx: RequestContext): Promise<ResponseInternal> {
  const storage = storageOf(ctx.config)
  const slug = ctx.request.providerId
  const back = slug === undefined ? `${ctx.baseUrl}/organization` : organizationPageUrl(ctx, slug)
  const who = await holderOrSignIn(ctx, "session", "The organization page", back)
  if (!isHolder(who)) return who
  const active = await activeId(ctx, who)
  if (slug === undefined) {
    if (!active) return noOrganizationPage(ctx, who)
    const organization = await storage.getOrganization(active)
    if (organization) return redirect(organizationPageUrl(ctx, organization.slug, statusQuery(ctx)))
    return noOrganizationPage(ctx, who)
  }
  const organization = slug.length <= 100 ? await storage.getOrganizationBySlug(slug.toLowerCase()) : null
  if (!organization) throw new OrganizationNotFound("No such organization among yours")
  const details = await organizationDetails(ctx.config, organization.id, who.user.id)
  const chosen = pageLocale(ctx)
  const model = await organizationModel(ctx, details, {
    userId: who.user.id,
    activeId: active,
    csrfToken: ensureCsrfToken(ctx),
    t: chosen.locale.messages,
    tag: chosen.locale.tag,
    saved: queryParam(ctx.request, "saved"),
    error: queryParam(ctx.request, "error"),
  })
  return pageResponse(ctx, ORGANIZATION_PAGE, details.organization.name, model, 200, chosen)
}
