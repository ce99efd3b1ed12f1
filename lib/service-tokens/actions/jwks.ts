/**
 * `GET jwks` (issue #31): the public keys that verify service tokens, `{ keys: [...] }` (each with
 * `kid`, `alg`, `use: "sig"`): the key that signs now, the next one before it signs, and the
 * previous one until its tokens have expired. Public, and cacheable for JWKS_MAX_AGE: the schedule
 * publishes every key at least that long before it signs (schedule.ts).
 */
import type { RequestContext } from "../../core/context.js"
import { json } from "../../core/response.js"
import type { ResponseInternal } from "../../types.js"
import { ServiceTokensUnavailable } from "../errors.js"
import { JWKS_MAX_AGE } from "../schedule.js"
import { currentKeys } from "../signing-keys.js"

export async function serviceTokenJwks(ctx: RequestContext): Promise<ResponseInternal> {
  const options = ctx.config.serviceTokens
  if (!options) throw new ServiceTokensUnavailable("The serviceTokens option is off")
  const { jwks } = await currentKeys(ctx.config, options)
  return json({ keys: jwks.keys }, 200, { "Cache-Control": `public, max-age=${JWKS_MAX_AGE}` })
}
