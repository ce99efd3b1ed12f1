/**
 * Discord (OAuth 2.0). `gatehouse/providers/discord`.
 *
 * Authorization at https://discord.com/oauth2/authorize with scope `identify email`, the token at
 * https://discord.com/api/oauth2/token, the user from https://discord.com/api/users/@me. The image
 * is the user's avatar on Discord's CDN, or the default avatar Discord shows for them.
 *
 * Environment: AUTH_DISCORD_ID, AUTH_DISCORD_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The User object of GET /users/@me (https://discord.com/developers/docs/resources/user). */
export interface DiscordProfile extends Record<string, unknown> {
  /** A snowflake. */
  id: string
  username: string
  /** "0" for accounts on the unique-username system, else the legacy four digits. */
  discriminator: string
  global_name: string | null
  /** The avatar hash (an `a_` prefix means animated), or null for the default avatar. */
  avatar: string | null
  bot?: boolean
  system?: boolean
  mfa_enabled?: boolean
  banner?: string | null
  accent_color?: number | null
  locale?: string
  /** With the `email` scope. */
  verified?: boolean
  /** With the `email` scope. */
  email?: string | null
  flags?: number
  premium_type?: number
  public_flags?: number
  avatar_decoration_data?: { asset: string; sku_id: string } | null
}

/** The avatar URL of a Discord user: their own, else the default one Discord assigns. */
export function discordAvatar(profile: Pick<DiscordProfile, "id" | "avatar" | "discriminator">): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  let index: number
  if (!profile.discriminator || profile.discriminator === "0") {
    try {
      index = Number((BigInt(profile.id) >> 22n) % 6n)
    } catch {
      index = 0
    }
  } else {
    index = Number(profile.discriminator) % 5
  }
  return `https://cdn.discordapp.com/embed/avatars/${Number.isInteger(index) ? index : 0}.png`
}

export default function Discord(options: OAuthUserConfig<DiscordProfile> = {}): OAuthProviderConfig<DiscordProfile> {
  return oauthProvider<DiscordProfile>(
    {
      id: "discord",
      name: "Discord",
      type: "oauth",
      authorization: { url: "https://discord.com/oauth2/authorize", params: { scope: "identify email" } },
      token: "https://discord.com/api/oauth2/token",
      userinfo: "https://discord.com/api/users/@me",
      profile: (profile) => ({
        id: profile.id,
        name: profile.global_name ?? profile.username,
        email: profile.email ?? null,
        image: discordAvatar(profile),
      }),
      // Discord says whether the account's address is verified.
      emailVerified: (profile) => profile.verified === true,
      style: { bg: "#5865f2", text: "#fff" },
    },
    options,
  )
}
