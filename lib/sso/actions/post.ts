/**
 * `POST sso[/...]` (issue #28), by path. The identity provider's own POSTs carry no CSRF token
 * (they come from its site): `saml/<id>/acs` (the assertion consumer) and `saml/<id>/slo` (single
 * logout, HTTP-POST binding), whose checks are the signed message's. Every other POST needs the
 * CSRF token, checked here: `sso` (start: an address or a slug), `connections/<verb>`,
 * `domains/<verb>` (lib/sso/manage/).
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { assertCsrf } from "../../core/csrf.js"
import { UnknownAction } from "../../errors.js"
import { ssoSettings } from "../access.js"

export async function ssoPost(ctx: RequestContext): Promise<ResponseInternal> {
  ssoSettings(ctx.config)
  const path = ctx.request.providerId
  const [kind, id, step, ...rest] = (path ?? "").split("/")
  if (path !== undefined && rest.length === 0 && kind === "saml" && step === "acs") return (await import("../saml/acs.js")).samlAcs(ctx, id)
  if (path !== undefined && rest.length === 0 && kind === "saml" && step === "slo") return (await import("../saml/slo.js")).samlSlo(ctx, id)
  assertCsrf(ctx)
  if (path === undefined) return (await import("../start.js")).startSso(ctx)
  if (kind === "connections" && id && step === undefined) return (await import("../manage/connections.js")).connectionAction(ctx, id)
  if (kind === "domains" && id && step === undefined) return (await import("../manage/domains.js")).domainAction(ctx, id)
  throw new UnknownAction(`No action at sso/${path}`)
}
