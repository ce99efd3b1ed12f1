/**
 * `GET sso[/...]` (issue #28), by path: the "Sign in with SSO" page; `saml/<id>/metadata` (the
 * SP metadata); `saml/<id>/slo` (single logout, HTTP-Redirect binding); `oidc/<id>/callback` (an
 * OIDC connection's redirect URI); `organization/<id>` (JSON: the organization's connections and
 * domains, for its admins). Anything else: `UnknownAction`.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { UnknownAction } from "../../errors.js"
import { ssoSettings } from "../access.js"

export async function ssoGet(ctx: RequestContext): Promise<ResponseInternal> {
  ssoSettings(ctx.config)
  const path = ctx.request.providerId
  if (path === undefined) return (await import("./entry.js")).ssoEntryPage(ctx)
  const [kind, id, step, ...rest] = path.split("/")
  if (rest.length === 0 && kind === "saml" && step === "metadata") return (await import("../saml/metadata.js")).samlMetadata(ctx, id)
  if (rest.length === 0 && kind === "saml" && step === "slo") return (await import("../saml/slo.js")).samlSlo(ctx, id)
  if (rest.length === 0 && kind === "oidc" && step === "callback") return (await import("../oidc/callback.js")).oidcCallback(ctx, id)
  if (kind === "organization" && step === undefined && id) return (await import("../manage/list.js")).ssoSettingsOf(ctx, id)
  throw new UnknownAction(`No page at sso/${path}`)
}
