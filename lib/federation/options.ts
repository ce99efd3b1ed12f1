/** Start-up checks of a provider's sign-out options (issue #17); each mistake names the option. */
import { show } from "../core/config/show.js"
import { InvalidOption } from "../errors.js"
import type { OAuthProviderConfig } from "../providers/types.js"


function isHttpUrl(value: unknown): boolean {
  if (typeof value !== "string") return false
  try {
    return ["http:", "https:"].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

export function assertSignOutOptions(provider: OAuthProviderConfig, path: string): void {
  const { federatedSignOut, revokeTokensOnSignOut } = provider
  if (revokeTokensOnSignOut !== undefined && typeof revokeTokensOnSignOut !== "boolean") {
    throw new InvalidOption(`${path}.revokeTokensOnSignOut must be true or false (got ${show(revokeTokensOnSignOut)})`)
  }
  if (federatedSignOut === undefined || federatedSignOut === false) return
  if (federatedSignOut !== true && (typeof federatedSignOut !== "object" || federatedSignOut === null || Array.isArray(federatedSignOut))) {
    throw new InvalidOption(`${path}.federatedSignOut must be true, false or { postLogoutRedirectUri } (got ${show(federatedSignOut)})`)
  }
  if (provider.type !== "oidc") throw new InvalidOption(`${path}.federatedSignOut needs an OpenID Connect provider (type "oidc"): RP-Initiated Logout is part of OpenID Connect`)
  const uri = typeof federatedSignOut === "object" ? federatedSignOut.postLogoutRedirectUri : undefined
  if (uri !== undefined && !isHttpUrl(uri)) throw new InvalidOption(`${path}.federatedSignOut.postLogoutRedirectUri must be an absolute http(s) URL (got ${show(uri)})`)
}
