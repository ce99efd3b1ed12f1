/**
 * Harness for the provider-token suites (issue #17): the OAuth harness's IdP configured as the
 * issue asks (short-lived access tokens, rotating refresh tokens, revocation, RP-initiated and
 * back-channel logout), a count of refresh grants the IdP answered, and a `/token` route on the
 * app that calls `getAccessToken`.
 */
import type { Express } from "express"
import type { Configuration } from "oidc-provider"
import { getAccessToken } from "../../lib/index.js"
import type { AuthError } from "../../lib/errors.js"
import type { AuthConfig } from "../../lib/types.js"
import type { Site } from "../oauth/support.js"

/** Seconds an access token lives at the IdP. */
export const ACCESS_TOKEN_TTL = 2

export function idpConfiguration(extra: Partial<Configuration> = {}): Partial<Configuration> {
  return {
    ttl: { AccessToken: ACCESS_TOKEN_TTL, IdToken: 3600, RefreshToken: 3600, Grant: 3600, Session: 3600, Interaction: 600 },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      backchannelLogout: { enabled: true },
    },
    ...extra,
  }
}

/** Counts the refresh grants the IdP served (successful or not). */
export function countRefreshes(site: Site): { readonly count: number; readonly refused: number } {
  const counts = { count: 0, refused: 0 }
  site.idp.provider.on("grant.success", (ctx: { oidc: { params?: { grant_type?: unknown } } }) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") counts.count++
  })
  site.idp.provider.on("grant.error", (ctx: { oidc: { params?: { grant_type?: unknown } } }) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") {
      counts.count++
      counts.refused++
    }
  })
  return counts
}

/** GET /token?skew=N on `app`: `{ token }`, or `{ error: <type> }` with 409. */
export function tokenRoute(app: Express, config: AuthConfig, providerId = "idp"): void {
  app.get("/token", (req, res) => {
    const skew = req.query.skew === undefined ? undefined : Number(req.query.skew)
    getAccessToken(req, config, providerId, { skew }).then(
      (token) => res.json({ token }),
      (error: AuthError) => res.status(409).json({ error: error.type ?? error.name, message: error.message }),
    )
  })
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
