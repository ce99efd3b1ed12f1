/**
 * `GET sso/saml/<connection>/metadata` (issue #28): the app's SP metadata for one connection, what
 * an organization's admin pastes (or points) into their identity provider: the entity id (this
 * URL), the ACS URL (HTTP-POST), the single logout URL, and the signing certificate when the app
 * has one (`sso.saml.signingCert`). No decryption key is published: assertions are not encrypted.
 * A connection that is turned off still serves its metadata (an admin sets the IdP up before
 * turning the connection on); an unknown id, or an OIDC connection, is `SsoConnectionNotFound`.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { ssoSettings, ssoStorage } from "../access.js"
import { SsoConnectionNotFound } from "../errors.js"
import { samlFor } from "./instance.js"

export async function samlMetadata(ctx: RequestContext, id: string | undefined): Promise<ResponseInternal> {
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new SsoConnectionNotFound("No such connection")
  const connection = await ssoStorage(ctx.config).getSsoConnection(id)
  if (!connection || connection.type !== "saml") throw new SsoConnectionNotFound("No such SAML connection")
  const cert = ssoSettings(ctx.config).saml.signingCert ?? null
  const xml = samlFor(ctx, connection).generateServiceProviderMetadata(null, cert)
  return { status: 200, body: xml, headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8" } }
}
