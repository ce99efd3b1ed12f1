/**
 * `GET sso/organization/<id>` (issue #28, JSON): the organization's SSO connections (never the
 * client secret; with the URLs to give the identity provider) and its domains (with the TXT record
 * each needs), for someone who may update the organization. Reading needs a session, not a recent
 * sign-in: nothing changes and no secret is shown.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json } from "../../core/response.js"
import { requireHolder } from "../../session/assurance.js"
import { listSettings } from "./view.js"

export async function ssoSettingsOf(ctx: RequestContext, organizationId: string): Promise<ResponseInternal> {
  const holder = await requireHolder(ctx, "session", "sso/organization")
  let id: string
  try {
    id = decodeURIComponent(organizationId)
  } catch {
    id = organizationId
  }
  return json(await listSettings(ctx.config, ctx.baseUrl, id, { userId: holder.user.id }))
}
