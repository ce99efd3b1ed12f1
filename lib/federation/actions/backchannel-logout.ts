/**
 * `POST backchannel-logout/<providerId>`: the provider tells us one of its users signed out
 * (OpenID Connect Back-Channel Logout 1.0). The `logout_token` is validated (federation/
 * logout-token.ts); the sessions started from that provider session end on every process; the
 * answer is 200. Anything invalid is 400 with an OAuth-style JSON error, and nothing is revoked.
 * No CSRF token: the caller is the provider's server, and the signed token is the proof.
 */
import type { RequestContext } from "../../core/context.js"
import { InvalidProvider } from "../../errors.js"
import { InvalidLogoutToken } from "../errors.js"
import { endProviderSessions } from "../provider-sessions.js"
import { verifyLogoutToken } from "../logout-token.js"
import type { OAuthProviderConfig, Provider } from "../../providers/types.js"
import type { ResponseInternal } from "../../types.js"

const NO_STORE = { "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8" }

export async function backchannelLogout(ctx: RequestContext, provider: Provider): Promise<ResponseInternal> {
  if (provider.type !== "oidc") throw new InvalidProvider("Back-channel logout is for OpenID Connect providers")
  const body = ctx.request.body as Record<string, unknown> | undefined
  try {
    const claims = await verifyLogoutToken(ctx.config, provider as OAuthProviderConfig, body?.logout_token)
    const ended = await endProviderSessions(ctx.config, provider.id, claims)
    ctx.config.logger.debug(`Back-channel logout from "${provider.id}": ${ended} session(s) ended`)
    return { status: 200, headers: NO_STORE, body: {} }
  } catch (error) {
    if (!(error instanceof InvalidLogoutToken)) throw error
    ctx.config.logger.error(error)
    return { status: 400, headers: NO_STORE, body: { error: "invalid_request", error_description: "The logout token is not valid" } }
  }
}
