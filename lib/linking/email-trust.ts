/**
 * Does an OAuth/OIDC provider vouch for the email address in a profile? Only then may the
 * address join, or take over, an account (issue #12). The rule:
 * - the provider's own `emailVerified(profile, tokens)` when it has one (built-ins with a
 *   documented rule: GitHub, Discord, Microsoft Entra ID);
 * - otherwise the OpenID Connect claim: `email_verified` is `true` (or the string "true", as
 *   Apple sends it). Missing, null or anything else is "not verified": most OAuth 2.0 profiles
 *   say nothing, and nothing said is nothing proved.
 */
import type { Profile, TokenSet } from "../types.js"
import type { OAuthProviderConfig } from "../providers/types.js"

export function claimsEmailVerified(profile: Profile): boolean {
  const claim = profile.email_verified as unknown
  return claim === true || claim === "true"
}

export async function providerVouchesForEmail(provider: OAuthProviderConfig, profile: Profile, tokens: TokenSet): Promise<boolean> {
  if (typeof provider.emailVerified === "function") return (await provider.emailVerified(profile as never, tokens)) === true
  if (typeof provider.emailVerified === "boolean") return provider.emailVerified
  return claimsEmailVerified(profile)
}
