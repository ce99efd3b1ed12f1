/**
 * `POST sessions/revoke` (CSRF-protected): `id=<sid>` ends that session of the signed-in user;
 * `others=1` ends all of them but this one. API calls (Accept: application/json) get JSON
 * `{ revoked }`; forms are redirected back: to `callbackUrl`, else the page they came from
 * (`Referer`), with the same-origin rules of every callback URL.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString } from "../../core/request.js"
import { json, redirect } from "../../core/response.js"
import { InvalidRequest } from "../../errors.js"
import { revokeOwnOtherSessions, revokeOwnSession } from "../revoke.js"
import { assertSubPath, signedInIdentity } from "./identity.js"

export async function revokeSessionsAction(ctx: RequestContext): Promise<ResponseInternal> {
  assertSubPath(ctx, "revoke")
  const { request } = ctx
  const body = request.body ?? {}
  const id = Object.prototype.hasOwnProperty.call(body, "id") ? body.id : undefined
  const others = Object.prototype.hasOwnProperty.call(body, "others") ? body.others : undefined
  const allOthers = others === "1" || others === "true" || others === 1 || others === true
  if ((id === undefined) === !allOthers || (others !== undefined && !allOthers)) throw new InvalidRequest("Post either id=<session id> or others=1")
  const callbackUrl = await resolveCallbackUrl(ctx, bodyString(request, "callbackUrl") ?? request.header("referer"))
  const identity = await signedInIdentity(ctx)
  let revoked = 1
  if (!allOthers) await revokeOwnSession(ctx.config, identity, id)
  else revoked = await revokeOwnOtherSessions(ctx.config, identity)
  return ctx.wantsJson ? json({ revoked }) : redirect(callbackUrl)
}
