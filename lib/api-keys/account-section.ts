/**
 * The account page's "API keys" section (issue #31), when the `apiKeys` option is on and users may
 * make keys of their own (`userKeys`): the user's keys, a Revoke form for each, and the create form
 * with the scopes the app declares (`apiKeys.scopes`). The forms come back to the account page.
 */
import type { RequestContext } from "../core/context.js"
import type { Messages } from "../i18n/index.js"
import { listApiKeys } from "./manage.js"
import { apiKeysStatus, expiryOptions, keyItem, markedUrl, type ApiKeysSection } from "./page-section.js"

/** The section's data, or undefined when the user may not have keys here. */
export async function accountApiKeysSection(ctx: RequestContext, userId: string, back: string, t: Messages, tag: string): Promise<ApiKeysSection | undefined> {
  const settings = ctx.config.apiKeys
  if (!settings?.userKeys) return undefined
  const keys = await listApiKeys(ctx.config, {}, { userId })
  return {
    owner: "user",
    action: `${ctx.baseUrl}/api-keys`,
    callbackUrl: markedUrl(back),
    keys: keys.map((key) => keyItem(key, t, tag)),
    scopes: [...settings.scopes],
    expiries: expiryOptions(t, settings.maxAge),
    ...apiKeysStatus(ctx, t),
  }
}
