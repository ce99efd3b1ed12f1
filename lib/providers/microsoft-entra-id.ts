/**
 * Microsoft Entra ID (formerly Azure AD), OpenID Connect on the v2.0 endpoints.
 * `gatehouse/providers/microsoft-entra-id`.
 *
 * `tenant` (default `common`) picks who can sign in: `common` (work, school and personal
 * accounts), `organizations`, `consumers`, or one tenant by its id (a GUID) or a domain. The
 * issuer is `https://login.microsoftonline.com/<tenant>/v2.0`; scope `openid profile email
 * User.Read`.
 *
 * Multi-tenant issuers. The discovery document of `common` and `organizations` names the issuer
 * `https://login.microsoftonline.com/{tenantid}/v2.0` (a template), and that of `consumers` or a
 * domain names a GUID issuer: neither equals the URL it was fetched from, and every ID token
 * carries the signing user's own tenant. openid-client handles this for login.microsoftonline.com
 * (the ID token's `iss` must be the template filled with its `tid` claim) when it resolves the
 * discovery document from the issuer URL itself, but Gatehouse's flow compares the discovered
 * issuer with `issuer` verbatim and refuses the template. So for every tenant that is not a GUID
 * this provider leaves `issuer` unset and gives the same URL as `wellKnown` (which the flow
 * resolves like an issuer, without its verbatim comparison); a GUID tenant gets `issuer`, checked
 * both ways. Do not set AUTH_MICROSOFT_ENTRA_ID_ISSUER for a non-GUID tenant: use `tenant`.
 *
 * The profile is the ID token's claims (no userinfo request); with `profilePhotoSize` (default 48,
 * `false` to skip) the user's photo is read from Microsoft Graph and given as a `data:` URL in
 * `picture` (none when the user has no photo or the request fails).
 *
 * Environment: AUTH_MICROSOFT_ENTRA_ID_ID, AUTH_MICROSOFT_ENTRA_ID_SECRET.
 */
import type { OAuthProviderConfig, OAuthUserConfig, UserinfoContext } from "./types.js"
import { oauthProvider } from "./oauth/options.js"
import { jwtClaims } from "./catalog/jwt.js"
import { oidcProfile } from "./catalog/oidc-profile.js"

/** ID token claims of the Microsoft identity platform (v2.0). */
export interface MicrosoftEntraIDProfile extends Record<string, unknown> {
  sub: string
  /** The user's object id, the same in every application of the tenant. */
  oid?: string
  /** The tenant the user signed in from. */
  tid?: string
  name?: string
  preferred_username?: string
  email?: string
  given_name?: string
  family_name?: string
  iss: string
  aud: string
  iat: number
  nbf?: number
  exp: number
  nonce?: string
  ver?: string
  login_hint?: string
  roles?: string[]
  groups?: string[]
  /** The photo from Microsoft Graph, as a data: URL (added by this provider when available). */
  picture?: string
}

export type MicrosoftEntraIDOptions = OAuthUserConfig<MicrosoftEntraIDProfile> & {
  /** `common` (default), `organizations`, `consumers`, a tenant GUID or a verified domain. */
  tenant?: string
  /** Size of the Graph photo to fetch, or `false` for none. Default 48. */
  profilePhotoSize?: 48 | 64 | 96 | 120 | 240 | 360 | 432 | 504 | 648 | false
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

async function graphPhoto(fetchImpl: typeof fetch, token: string, size: number): Promise<string | undefined> {
  try {
    const response = await fetchImpl(`https://graph.microsoft.com/v1.0/me/photos/${size}x${size}/$value`, {
      headers: { authorization: `Bearer ${token}` },
      redirect: "manual",
    })
    if (!response.ok) return undefined
    const type = (response.headers.get("content-type") ?? "image/jpeg").split(";")[0]!.trim()
    if (!/^image\/[a-z0-9.+-]+$/i.test(type)) return undefined
    return `data:${type};base64,${Buffer.from(await response.arrayBuffer()).toString("base64")}`
  } catch {
    return undefined
  }
}

export default function MicrosoftEntraID(options: MicrosoftEntraIDOptions = {}): OAuthProviderConfig<MicrosoftEntraIDProfile> {
  const { tenant = "common", profilePhotoSize = 48, ...rest } = options
  const url = `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/v2.0`
  const location = rest.issuer || rest.wellKnown ? {} : GUID.test(tenant) ? { issuer: url } : { wellKnown: url }
  return oauthProvider<MicrosoftEntraIDProfile>(
    {
      id: "microsoft-entra-id",
      name: "Microsoft Entra ID",
      type: "oidc",
      ...location,
      authorization: { params: { scope: "openid profile email User.Read" } },
      userinfo: {
        // The ID token, validated by the flow before this runs, holds the profile.
        async request({ tokens, fetch }: UserinfoContext) {
          const claims = jwtClaims(tokens.id_token) as MicrosoftEntraIDProfile
          const picture = profilePhotoSize && tokens.access_token ? await graphPhoto(fetch, tokens.access_token, profilePhotoSize) : undefined
          return picture ? { ...claims, picture } : claims
        },
      },
      profile: oidcProfile,
      // The `email` claim is whatever a tenant's admin typed, not a proven address. With one tenant
      // you chose to trust (a GUID or a domain) it is taken as verified; with `common`,
      // `organizations` or `consumers`, any tenant could set any address, so only Microsoft's
      // optional `xms_edov` claim (the email domain's owner is verified) vouches for it.
      emailVerified: (profile) => (tenant !== "common" && tenant !== "organizations" && tenant !== "consumers") || (profile as { xms_edov?: unknown }).xms_edov === true,
      style: { bg: "#2f2f2f", text: "#fff" },
    },
    rest,
  )
}
