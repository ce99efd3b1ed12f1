/**
 * SSO enforcement (issue #28): a person whose address is at a verified domain of an organization
 * that enforces its SSO signs in only through that organization's connections. Every other way
 * (password, magic link, OAuth, passkey) is refused with `SsoRequired`, except for the
 * organization's owners (break-glass: an owner can still get in when the identity provider is
 * down). Asked by every sign-in as it completes (lib/actions/callback/login.ts): one adapter call
 * when `sso` is on, none when it is off.
 */
import type { RequestContext } from "../core/context.js"
import type { Account, User } from "../types.js"
import { ssoStorage } from "./access.js"
import { domainOf } from "./domains-shared.js"
import { SsoRequired } from "./errors.js"

const PREFIX = "sso-"

export async function enforceSso(ctx: RequestContext, result: { user: User; account: Account }): Promise<void> {
  if (!ctx.config.sso) return
  const email = result.user.email
  const domain = typeof email === "string" ? domainOf(email) : undefined
  if (!domain) return
  const storage = ssoStorage(ctx.config)
  const claim = await storage.getVerifiedDomain(domain)
  if (!claim?.enforceSso) return
  const provider = result.account?.provider
  if (typeof provider === "string" && provider.startsWith(PREFIX)) {
    const connection = await storage.getSsoConnection(provider.slice(PREFIX.length))
    if (connection?.organizationId === claim.organizationId) return
  }
  const userId = result.user.id
  if (userId) {
    const member = await ctx.config.adapter?.getMember?.(claim.organizationId, String(userId))
    if (member?.role === "owner") return
  }
  throw new SsoRequired(`Addresses at ${domain} sign in through their organization's SSO`)
}
