/**
 * SP-initiated single logout (issue #28): when a user who signed in through a SAML connection with
 * a logout URL signs out here, the browser goes on to the identity provider with a signed
 * LogoutRequest, which ends their session there too; its LogoutResponse comes back to
 * `sso/saml/<connection>/slo` and lands on the site's root.
 */
import type { RequestContext } from "../../core/context.js"
import type { AdapterAccount } from "../../adapters.js"
import { ssoStorage } from "../access.js"
import { samlLogoutUrl } from "./slo.js"
import { samlSessionKey } from "../signin.js"

const PREFIX = "sso-"

/** The identity provider's logout URL for this user, or null (no SAML account, or no logout URL). */
export async function samlLogoutTarget(ctx: RequestContext, userId: string): Promise<string | null> {
  const adapter = ctx.config.adapter
  if (!ctx.config.sso || !adapter?.listAccountsByUserId) return null
  const accounts = (await adapter.listAccountsByUserId(userId)) as AdapterAccount[]
  const storage = ssoStorage(ctx.config)
  for (const account of accounts) {
    if (!account.provider.startsWith(PREFIX)) continue
    const connection = await storage.getSsoConnection(account.provider.slice(PREFIX.length))
    if (connection?.enabled && connection.type === "saml") {
      const known = await ctx.config.store.getValue?.(samlSessionKey(connection.id, account.providerAccountId))
      const session = known ? (JSON.parse(known) as { sessionIndex?: string | null; nameIdFormat?: string | null }) : {}
      const url = await samlLogoutUrl(ctx, connection, account.providerAccountId, session.sessionIndex ?? null, session.nameIdFormat ?? null)
      if (url) return url
    }
  }
  return null
}
