/**
 * `GET|POST sso/saml/<connection>/slo` (issue #28): SAML single logout.
 * - A LogoutRequest from the identity provider (HTTP-Redirect binding: its query must be signed;
 *   HTTP-POST: the message must be signed, node-saml checks either against the pinned
 *   certificates) ends every session of the user whose account is (`sso-<connection>`, NameID)
 *   (`endUserSessions`: revocable sessions, every process), then the browser goes back to the
 *   identity provider with our LogoutResponse. A LogoutRequest is used once (its ID is claimed in
 *   the shared store) and only while fresh.
 * - A LogoutResponse (the answer to our own LogoutRequest, `samlLogoutUrl`) is checked and the
 *   browser goes to the site's root.
 * Before node-saml: the size limit, a bounded inflate (redirect binding), no DTD, well-formed.
 * Every refusal is a named error, audited as `sso.refused` with the connection id.
 */
import { inflateRawSync } from "node:zlib"
import type { Profile } from "@node-saml/node-saml"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString, queryParam } from "../../core/request.js"
import { redirect } from "../../core/response.js"
import { audit, reasonOf } from "../../audit/emit.js"
import { endUserSessions } from "../../devices/revoke-user.js"
import type { AdapterSsoConnection } from "../adapter.js"
import { enabledConnection, ssoSettings, ssoStorage } from "../access.js"
import { SsoReplay, SsoResponseInvalid } from "../errors.js"
import { ssoProviderId } from "../signin.js"
import { samlFailure } from "./acs.js"
import { PROTOCOL_NS, decodeMessage, parseXml, refuseDeclarations } from "./checks.js"
import { RELAY_SECONDS } from "../relay.js"
import { samlFor, samlSettingsOf, samlUrls } from "./instance.js"

/** How old a LogoutRequest may be (from its IssueInstant), beyond the clock skew. */
const LOGOUT_REQUEST_SECONDS = RELAY_SECONDS

type Kind = "LogoutRequest" | "LogoutResponse"

/** The checks before node-saml: a logout message of the expected kind, sent to our SLO URL. */
function checkLogoutShape(xml: string, sloUrl: string, kind: Kind): Element {
  const root = parseXml(xml).documentElement
  if (root.namespaceURI !== PROTOCOL_NS || root.localName !== kind) throw new SsoResponseInvalid(`The SAML message is a ${root.localName}, not a ${kind}`)
  const destination = root.getAttribute("Destination")
  if (destination && destination !== sloUrl) throw new SsoResponseInvalid(`The ${kind}'s Destination is not this connection's single logout URL`)
  return root
}

/** A LogoutRequest is fresh and used once. */
async function claimLogoutRequest(ctx: RequestContext, connection: AdapterSsoConnection, root: Element): Promise<void> {
  const skew = ssoSettings(ctx.config).saml.clockSkewMs
  const issued = Date.parse(root.getAttribute("IssueInstant") ?? "")
  const now = Date.now()
  if (!Number.isFinite(issued) || issued > now + skew || issued + LOGOUT_REQUEST_SECONDS * 1000 + skew <= now) throw new SsoResponseInvalid("The LogoutRequest is not fresh (IssueInstant)")
  const id = root.getAttribute("ID")
  if (!id) throw new SsoResponseInvalid("The LogoutRequest has no ID")
  const ttl = Math.ceil((issued + LOGOUT_REQUEST_SECONDS * 1000 + skew - now) / 1000) + 1
  if (!(await ctx.config.store.claim(`sso:saml-logout:${connection.id}:${id}`, ttl))) throw new SsoReplay("This LogoutRequest was used before")
}

/** The message of a redirect-binding request: its query (signed), inflated within the size limit. */
function redirectMessage(ctx: RequestContext, name: "SAMLRequest" | "SAMLResponse", maxSize: number): string {
  const encoded = queryParam(ctx.request, name)
  if (!encoded || encoded.length > maxSize) throw new SsoResponseInvalid(`The ${name} is missing or over ${maxSize} characters`)
  if (!queryParam(ctx.request, "Signature") || !queryParam(ctx.request, "SigAlg")) throw new SsoResponseInvalid(`The ${name} is not signed: a logout message of the redirect binding must carry Signature and SigAlg`)
  let xml: string
  try {
    xml = inflateRawSync(Buffer.from(encoded, "base64"), { maxOutputLength: maxSize * 4 }).toString("utf8")
  } catch (error) {
    throw new SsoResponseInvalid(`The ${name} could not be inflated: ${(error as Error).message}`)
  }
  refuseDeclarations(xml)
  return xml
}

async function endSessionsOf(ctx: RequestContext, connection: AdapterSsoConnection, profile: Profile): Promise<void> {
  if (typeof profile.nameID !== "string" || !profile.nameID) throw new SsoResponseInvalid("The LogoutRequest names no user")
  const user = await ssoStorage(ctx.config).getUserByAccount({ provider: ssoProviderId(connection), providerAccountId: profile.nameID })
  if (!user) return
  await endUserSessions(ctx.config, user.id)
  audit(ctx.config, { type: "sso.logout", userId: user.id, connectionId: connection.id })
}

async function handle(ctx: RequestContext, connection: AdapterSsoConnection): Promise<ResponseInternal> {
  samlSettingsOf(connection)
  const { maxResponseSize } = ssoSettings(ctx.config).saml
  const { slo } = samlUrls(ctx, connection.id)
  const saml = samlFor(ctx, connection)
  const post = ctx.request.method === "POST"
  const read = (name: string) => (post ? bodyString(ctx.request, name) : queryParam(ctx.request, name))
  const kind: Kind = read("SAMLRequest") !== undefined ? "LogoutRequest" : "LogoutResponse"
  const name = kind === "LogoutRequest" ? "SAMLRequest" : "SAMLResponse"
  const xml = post ? decodeMessage(read(name), maxResponseSize) : redirectMessage(ctx, name, maxResponseSize)
  const root = checkLogoutShape(xml, slo, kind)
  if (kind === "LogoutRequest") await claimLogoutRequest(ctx, connection, root)
  const relayState = read("RelayState")
  let result: { profile: Profile | null; loggedOut: boolean }
  try {
    if (post) {
      const container = { [name]: read(name) as string }
      result = kind === "LogoutRequest" ? await saml.validatePostRequestAsync(container) : await saml.validatePostResponseAsync(container)
    } else {
      const query = Object.fromEntries(["SAMLRequest", "SAMLResponse", "RelayState", "SigAlg", "Signature"].flatMap((key) => (queryParam(ctx.request, key) === undefined ? [] : [[key, queryParam(ctx.request, key) as string]])))
      result = await saml.validateRedirectAsync(query, new URL(ctx.request.webRequest().url).search.slice(1))
    }
  } catch (error) {
    throw samlFailure(error, connection.id)
  }
  if (!result.loggedOut) throw new SsoResponseInvalid(`Connection ${connection.id}: the message is no logout`)
  if (kind === "LogoutResponse") return redirect(await resolveCallbackUrl(ctx, ctx.request.origin))
  if (!result.profile) throw new SsoResponseInvalid(`Connection ${connection.id}: the LogoutRequest names no user`)
  await endSessionsOf(ctx, connection, result.profile)
  if (!(connection.settings as { sloUrl?: string | null }).sloUrl) return redirect(await resolveCallbackUrl(ctx, ctx.request.origin))
  try {
    return redirect(await saml.getLogoutResponseUrlAsync(result.profile, relayState ?? "", {}, true))
  } catch (error) {
    throw samlFailure(error, connection.id)
  }
}

export async function samlSlo(ctx: RequestContext, id: string | undefined): Promise<ResponseInternal> {
  let connection: AdapterSsoConnection | undefined
  try {
    connection = await enabledConnection(ctx.config, id, "saml")
    return await handle(ctx, connection)
  } catch (error) {
    const refusal = samlFailure(error, connection?.id ?? String(id))
    audit(ctx.config, { type: "sso.refused", outcome: "failure", reason: reasonOf(refusal), connectionId: connection?.id ?? (typeof id === "string" ? id.slice(0, 64) : undefined) })
    throw refusal
  }
}

/**
 * SP-initiated logout: the identity provider's URL carrying our LogoutRequest for this person
 * (signed when the connection signs its requests), or null when the connection has no single
 * logout URL. The sign-out flow sends the browser there after ending the session here; the IdP's
 * LogoutResponse comes back to the SLO URL and lands on the site's root.
 */
export async function samlLogoutUrl(ctx: RequestContext, connection: AdapterSsoConnection, nameId: string, sessionIndex?: string | null, nameIdFormat?: string | null): Promise<string | null> {
  const settings = samlSettingsOf(connection)
  if (!settings.sloUrl) return null
  const profile = {
    issuer: settings.entityId,
    nameID: nameId,
    nameIDFormat: nameIdFormat ?? settings.nameIdFormat ?? "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
    ...(sessionIndex ? { sessionIndex } : {}),
  } as Profile
  try {
    return await samlFor(ctx, connection).getLogoutUrlAsync(profile, "", {})
  } catch (error) {
    throw samlFailure(error, connection.id)
  }
}
