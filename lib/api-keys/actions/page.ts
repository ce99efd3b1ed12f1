/**
 * The page that shows a key a form just made (issue #31), once: in a read-only field, with its
 * name, scopes and expiry, and a link back to the page the form came from. The key is in this
 * answer's body only (never in a URL, never stored), and the answer is never cached.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { formatDateTime } from "../../devices/when.js"
import type { CreatedApiKey } from "../manage.js"
import { API_KEY_CREATED_PAGE } from "../pages.js"

export function createdKeyPage(ctx: RequestContext, created: CreatedApiKey, back: string): ResponseInternal {
  const chosen = pageLocale(ctx)
  const { messages: t, tag } = chosen.locale
  const { apiKey } = created
  const model = {
    key: created.key,
    name: apiKey.name,
    scopes: apiKey.scopes.length ? apiKey.scopes.join(", ") : t["apiKeys.key.noScopes"],
    expires: apiKey.expires ? formatDateTime(apiKey.expires, tag) : null,
    backUrl: back,
  }
  const response = pageResponse(ctx, API_KEY_CREATED_PAGE, t["apiKeys.created.title"], model, 200, chosen)
  return { ...response, headers: { ...response.headers, "Cache-Control": "no-store" } }
}
