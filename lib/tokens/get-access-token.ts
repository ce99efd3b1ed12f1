/**
 * `getAccessToken(req, config, providerId)`: the signed-in user's access token for an OAuth/OIDC
 * provider, refreshed with the refresh token when it expires within `skew` seconds (default 60).
 *
 *   app.get("/repos", requireAuth(config), async (req, res) => {
 *     const token = await getAccessToken(req, config, "github")
 *     res.json(await (await fetch(API, { headers: { authorization: `Bearer ${token}` } })).json())
 *   })
 *
 * Concurrent calls for one account refresh once (in this process, and across processes through
 * the shared store); the new tokens replace the old ones where they were kept (token-home.ts).
 * Errors: `SessionRequired` (signed out), `InvalidProvider`, `ProviderTokenMissing`,
 * `RefreshTokenError` (the provider refused: sign in again), `TokenRefreshFailed` (unreachable).
 */
import type { AuthConfigInput } from "../types.js"
import { InvalidProvider, MissingAdapterMethods, SessionRequired } from "../errors.js"
import { ProviderTokenMissing, RefreshTokenError } from "./errors.js"
import { resolveFor } from "../express/config.js"
import { requestIdentity } from "../express/session.js"
import type { GatehouseRequest } from "../express/types.js"
import type { OAuthProviderConfig } from "../providers/types.js"
import { refreshGrant } from "./refresh-grant.js"
import { refreshOnce } from "./single-flight.js"
import { tokenHome } from "./token-home.js"
import { countRefresh } from "../telemetry/counts.js"

export interface GetAccessTokenOptions {
  /** Refresh when the token expires within this many seconds. Default 60. */
  skew?: number
}

export const DEFAULT_SKEW_SECONDS = 60

export async function getAccessToken(req: GatehouseRequest, config: AuthConfigInput, providerId: string, options: GetAccessTokenOptions = {}): Promise<string> {
  const resolved = await resolveFor(req, config)
  const provider = typeof providerId === "string" ? resolved.providers.byId.get(providerId) : undefined
  if (!provider || (provider.type !== "oauth" && provider.type !== "oidc")) {
    throw new InvalidProvider(`getAccessToken: "${String(providerId)}" is not an OAuth or OpenID Connect provider of this configuration`)
  }
  const identity = await requestIdentity(req, req.res, resolved)
  if (!identity) throw new SessionRequired("getAccessToken needs a signed-in user")
  const home = await tokenHome(resolved, req, identity, provider.id)
  if (!home) throw new ProviderTokenMissing(`The signed-in user has no stored access token from "${provider.id}"`)

  const skew = options.skew ?? DEFAULT_SKEW_SECONDS
  const { tokens } = home
  const now = Math.floor(Date.now() / 1000)
  if (tokens.access_token && (tokens.expires_at === undefined || tokens.expires_at - skew > now)) return tokens.access_token
  if (!tokens.refresh_token) {
    await home.refused()
    throw new RefreshTokenError(`The "${provider.id}" access token has expired and there is no refresh token: the user must sign in with it again`)
  }
  if (home.kind === "account" && !resolved.adapter?.updateAccountTokens) {
    // Checked before the refresh: a rotated refresh token that could not be stored would be lost.
    throw new MissingAdapterMethods("The adapter lacks updateAccountTokens, which storing a refreshed provider token needs (Gatehouse's memory, SQL and MongoDB adapters have it)")
  }
  const oauth = provider as OAuthProviderConfig
  let refreshedHere = false
  try {
    const fresh = await refreshOnce(
      resolved,
      oauth,
      tokens.refresh_token,
      () => countRefresh(resolved, oauth.id, refreshGrant(resolved, oauth, tokens)),
      (next) => {
        refreshedHere = true
        return home.save(next)
      },
    )
    // Cookie sessions: every response carries the new tokens (the refresher's already does).
    if (!refreshedHere && home.kind === "cookie") await home.save(fresh)
    return fresh.access_token as string
  } catch (error) {
    if (error instanceof RefreshTokenError) await home.refused()
    throw error
  }
}
