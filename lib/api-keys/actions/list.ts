/**
 * `GET api-keys` (JSON, issue #31): the signed-in user's own keys, or with `?organizationId=` an
 * organization's keys (a member whose role grants `organization:update`). Never a key or a hash.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json } from "../../core/response.js"
import { queryParam } from "../../core/request.js"
import { requireHolder } from "../../session/assurance.js"
import { listApiKeys, settingsOf } from "../manage.js"

export async function apiKeysGet(ctx: RequestContext): Promise<ResponseInternal> {
  settingsOf(ctx.config)
  const holder = await requireHolder(ctx, "session", "Listing API keys")
  const keys = await listApiKeys(ctx.config, { organizationId: queryParam(ctx.request, "organizationId") }, { userId: holder.user.id })
  return json({ keys }, 200, { "Cache-Control": "no-store" })
}
