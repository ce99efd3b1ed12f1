/**
 * `POST sso/connections/<create|update|delete>` (issue #28; the CSRF token is checked by
 * actions/post.ts): an organization's admins (`organization:update`, a recent sign-in) add, change
 * and remove its SAML and OIDC connections. The rules are connection-rules.ts; the answer is the
 * connection as its admins see it (never the client secret), with `warnings` (an expired
 * certificate).
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { UnknownAction } from "../../errors.js"
import { createConnection, deleteConnection, updateConnection } from "./connection-rules.js"
import { CONNECTION_FIELDS } from "./fields.js"
import { field, fields, manage } from "./answer.js"
import { connectionView } from "./view.js"

export async function connectionAction(ctx: RequestContext, verb: string): Promise<ResponseInternal> {
  if (verb !== "create" && verb !== "update" && verb !== "delete") throw new UnknownAction(`No action at sso/connections/${verb}`)
  return manage(ctx, `connections/${verb}`, verb, async (actor) => {
    const input = fields(ctx, CONNECTION_FIELDS)
    if (verb === "create") {
      const made = await createConnection(ctx.config, field(ctx, "organizationId"), input, actor)
      return { organizationId: made.connection.organizationId, connection: connectionView(ctx.baseUrl, made.connection), warnings: made.warnings }
    }
    if (verb === "update") {
      const changed = await updateConnection(ctx.config, field(ctx, "connectionId"), input, actor)
      return { organizationId: changed.connection.organizationId, connection: connectionView(ctx.baseUrl, changed.connection), warnings: changed.warnings }
    }
    const deleted = await deleteConnection(ctx.config, field(ctx, "connectionId"), actor)
    return { organizationId: deleted.organizationId, deleted: true }
  })
}
