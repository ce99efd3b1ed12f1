/**
 * Users as `oidc-provider` accounts: `findAccount` reads the stored user (a deleted or banned user
 * has no account: their refresh tokens and userinfo stop working at once), and `claims` gives what
 * each scope releases: `openid` the subject (the user's id), `profile` the name and picture,
 * `email` the address and whether it is verified, `organization` (organizations on) the user's
 * organizations with their role, and the app's own claims from `oidcProvider.claims`, each released
 * with the scope `scopeClaims` names for it (a claim named by no scope is never released).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { ResolvedOidcProvider } from "./settings.js"

/** Which claims each scope releases (oidc-provider's `claims` option). */
export function claimsByScope(options: ResolvedOidcProvider, config: ResolvedConfig): Record<string, string[]> {
  const claims: Record<string, string[]> = { openid: ["sub"], profile: ["name", "picture"], email: ["email", "email_verified"] }
  if (config.organizations) claims.organization = ["organizations"]
  for (const [scope, names] of Object.entries(options.scopeClaims)) claims[scope] = [...(claims[scope] ?? []), ...names]
  return claims
}

interface Account {
  accountId: string
  claims(use: string, scope: string): Promise<Record<string, unknown>>
}

async function organizationsOf(config: ResolvedConfig, userId: string): Promise<unknown[]> {
  const [{ membershipCache }, { settingsOf }] = await Promise.all([import("../organizations/memberships.js"), import("../organizations/access.js")])
  const memberships = await membershipCache(config).load(config, settingsOf(config), userId)
  return memberships.list.map((membership) => ({ id: membership.fact.id, slug: membership.fact.slug, name: membership.name, role: membership.fact.role }))
}

export async function findAccount(config: ResolvedConfig, options: ResolvedOidcProvider, sub: string, clientId: string | undefined): Promise<Account | undefined> {
  const user = await config.adapter!.getUser!(sub)
  if (!user) return undefined
  // A banned user (admin tools, issue #30) is no account: refreshes and userinfo stop at once.
  if (config.admin && (await (await import("../admin/bans.js")).activeBan(config, user.id))) return undefined
  return {
    accountId: user.id,
    async claims(use, scope) {
      const scopes = scope.split(" ").filter(Boolean)
      const own = options.claims ? await options.claims({ user, scopes, clientId: clientId ?? "", use: use === "userinfo" ? "userinfo" : "id_token" }) : {}
      return {
        ...own,
        sub: user.id,
        email: user.email,
        email_verified: user.emailVerified !== null && user.emailVerified !== undefined,
        name: user.name ?? undefined,
        picture: user.image ?? undefined,
        ...(config.organizations && scopes.includes("organization") && { organizations: await organizationsOf(config, user.id) }),
      }
    },
  }
}
