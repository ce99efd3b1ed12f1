/** `GET sessions`: the signed-in user's live sessions, a JSON array, newest first (401 `SessionRequired` when signed out). */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json } from "../../core/response.js"
import { listUserSessions } from "../list.js"
import { assertSubPath, signedInIdentity } from "./identity.js"

export async function listSessionsAction(ctx: RequestContext): Promise<ResponseInternal> {
  assertSubPath(ctx, undefined)
  const identity = await signedInIdentity(ctx)
  return json(await listUserSessions(ctx.config, identity))
}
