/** The user of a standard OIDC profile: `sub`, the display name (or the preferred username), email and picture. */
export interface StandardClaims {
  sub: string
  name?: string
  preferred_username?: string
  email?: string
  picture?: string
}

export function oidcProfile(profile: StandardClaims) {
  return {
    id: profile.sub,
    name: profile.name ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }
}
