/**
 * From what the provider returned to Gatehouse's records: the profile (ID token claims and/or the
 * userinfo response), the user (`profile()`, default sub/id, name, email, picture) and the
 * account with the spec's token fields (`token_type` lowercased, `expires_at` in seconds).
 */
import { OAuthProfileParseError } from "../../errors.js"
import type { Account, JsonValue, Profile, TokenSet, User } from "../../types.js"
import type { OAuthProviderConfig, ProfileUser } from "../types.js"

/** The default mapping, for OIDC claims and OAuth profiles alike. */
export function defaultProfile(profile: Profile): ProfileUser {
  return {
    id: (profile.sub ?? profile.id ?? undefined) as string | number | undefined,
    name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: typeof profile.picture === "string" ? profile.picture : null,
  }
}

const MAX_ID_LENGTH = 255

/** The user from `profile()`: an id is required (it becomes the account's providerAccountId). */
export async function userFromProfile(provider: OAuthProviderConfig, profile: Profile, tokens: TokenSet): Promise<{ user: User; providerAccountId: string }> {
  let mapped: ProfileUser
  try {
    mapped = await (provider.profile ?? defaultProfile)(profile, tokens)
  } catch (error) {
    throw new OAuthProfileParseError(`profile() of provider "${provider.id}" threw`, { cause: { err: error } })
  }
  if (!mapped || typeof mapped !== "object") throw new OAuthProfileParseError(`profile() of provider "${provider.id}" returned no user`)
  const id = mapped.id
  if ((typeof id !== "string" && typeof id !== "number") || String(id) === "" || String(id).length > MAX_ID_LENGTH) {
    throw new OAuthProfileParseError(`The profile from provider "${provider.id}" has no usable id (sub)`)
  }
  const text = (value: unknown) => (typeof value === "string" ? value : value === null ? null : undefined)
  const email = text(mapped.email)
  const user: User = {
    id: String(id),
    name: text(mapped.name),
    email: email ? email.trim().toLowerCase() : email,
    image: text(mapped.image),
  }
  return { user, providerAccountId: String(id) }
}

const SPEC_TOKEN_FIELDS = ["access_token", "refresh_token", "id_token", "scope", "token_type", "expires_at", "authorization_details", "session_state"] as const

/** The token fields of the spec, normalised: lowercase token_type, expires_at from expires_in. */
export function tokenSet(response: Record<string, unknown>, now = Math.floor(Date.now() / 1000)): TokenSet {
  const tokens: TokenSet = { ...(response as TokenSet) }
  if (typeof tokens.token_type === "string") tokens.token_type = tokens.token_type.toLowerCase() as Lowercase<string>
  const expiresIn = Number(response.expires_in)
  if (response.expires_in !== undefined && Number.isFinite(expiresIn)) tokens.expires_at = now + Math.floor(expiresIn)
  return tokens
}

export function accountOf(provider: OAuthProviderConfig, tokens: TokenSet, providerAccountId: string): Account {
  const fields = provider.account
    ? provider.account(tokens)
    : Object.fromEntries(SPEC_TOKEN_FIELDS.filter((key) => tokens[key] !== undefined).map((key) => [key, tokens[key]]))
  return { ...(fields as Record<string, JsonValue>), provider: provider.id, type: provider.type, providerAccountId }
}
