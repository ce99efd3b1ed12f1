/**
 * `GET token` (issue #31): the signed-in session, or the API key in `Authorization: Bearer`, made
 * into a short-lived signed JWT for the app's other services: `{ token, tokenType: "Bearer",
 * expiresIn, expires }`, never cached. Query: `audience` (one of `serviceTokens.audiences`),
 * `scope` (space-separated, each held by the caller). Audited as `service_token.issued` (its id,
 * never the token) or `service_token.refused`.
 */
import { SignJWT } from "jose"
import type { RequestContext } from "../../core/context.js"
import { json } from "../../core/response.js"
import { AuthError } from "../../errors.js"
import { audit, reasonOf } from "../../audit/emit.js"
import type { ResponseInternal } from "../../types.js"
import { tokenCaller, type TokenCaller } from "../caller.js"
import { audienceOf, claimsOf, scopesOf } from "../claims.js"
import { ServiceTokensUnavailable } from "../errors.js"
import { currentKeys } from "../signing-keys.js"

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" }

export async function serviceToken(ctx: RequestContext): Promise<ResponseInternal> {
  const options = ctx.config.serviceTokens
  if (!options) throw new ServiceTokensUnavailable("The serviceTokens option is off")
  let caller: TokenCaller | undefined
  try {
    caller = await tokenCaller(ctx)
    const audience = audienceOf(ctx, options)
    const scopes = scopesOf(ctx, caller)
    const { signing } = await currentKeys(ctx.config, options)
    const claims = claimsOf(caller, options.issuer ?? ctx.baseUrl, audience, scopes, options.maxAge)
    const token = await new SignJWT({ ...claims }).setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: "JWT" }).sign(signing.key)
    const expires = new Date(claims.exp * 1000).toISOString()
    audit(ctx.config, {
      type: "service_token.issued",
      ...(caller.userId && { userId: caller.userId }),
      via: caller.via,
      audience,
      scopes,
      tokenId: claims.jti,
      kid: signing.kid,
      expires,
      organizationId: caller.organizationId ?? undefined,
      actorId: caller.actorId,
      apiKeyId: caller.apiKeyId,
    })
    return json({ token, tokenType: "Bearer", expiresIn: options.maxAge, expires }, 200, NO_STORE)
  } catch (error) {
    if (error instanceof AuthError) {
      audit(ctx.config, { type: "service_token.refused", outcome: "failure", reason: reasonOf(error), ...(caller?.userId && { userId: caller.userId }), via: caller?.via, apiKeyId: caller?.apiKeyId })
    }
    throw error
  }
}
