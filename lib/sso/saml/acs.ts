/**
 * `POST sso/saml/<connection>/acs` (issue #28): the assertion consumer, HTTP-POST binding. The
 * identity provider's answer goes through our checks (checks.ts), node-saml's signature and
 * condition checks (pinned certificates, a signed assertion, InResponseTo against the shared
 * store, audience, times with bounded skew), our checks of the signed assertion and the replay
 * claim, then becomes an `SsoProfile` and a sign-in (`completeSsoSignIn`). Where the browser goes:
 * the callback URL saved when the sign-in started (RelayState names it, once, for this connection
 * only); an IdP-initiated sign-in (when the connection allows it) goes to the site's root, or to
 * RelayState when it is a URL the redirect rules accept. Every refusal is a named error (anything
 * node-saml throws becomes `SsoResponseInvalid` with its message kept for the log, never a 500),
 * audited as `sso.refused` with the connection id.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString } from "../../core/request.js"
import { audit, reasonOf } from "../../audit/emit.js"
import { AuthError } from "../../core/errors.js"
import type { AdapterSsoConnection } from "../adapter.js"
import type { SsoProfile } from "../profile.js"
import { enabledConnection, ssoSettings } from "../access.js"
import { SsoResponseInvalid, SsoUnsolicited } from "../errors.js"
import { takeRelay } from "../relay.js"
import { completeSsoSignIn } from "../signin.js"
import { checkResponseShape, checkSignedAssertion, claimAssertion, decodeMessage, refuseSeenAssertion } from "./checks.js"
import { samlFor, samlSettingsOf, samlUrls } from "./instance.js"
import { samlProfileOf } from "./profile.js"

/** node-saml's error as ours: a missing InResponseTo (strict mode) is an unsolicited answer. */
export function samlFailure(error: unknown, connectionId: string): AuthError {
  if (error instanceof AuthError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (/InResponseTo is missing/i.test(message)) return new SsoUnsolicited(`Connection ${connectionId}: the response answers no request of ours (${message})`)
  return new SsoResponseInvalid(`Connection ${connectionId}: the SAML message was refused: ${message.slice(0, 300)}`)
}

/** Where an IdP-initiated sign-in goes: RelayState when the redirect rules take it as a URL, else the root. */
async function unsolicitedTarget(ctx: RequestContext, relayState: string | undefined): Promise<string> {
  const root = ctx.request.origin
  if (relayState && (relayState.startsWith("/") || /^https?:\/\//i.test(relayState))) {
    const resolved = await resolveCallbackUrl(ctx, relayState)
    if (new URL(resolved).origin === new URL(root).origin) return resolved
  }
  return resolveCallbackUrl(ctx, root)
}

/** The checked profile and where the browser goes next, or a named refusal. */
async function consume(ctx: RequestContext, connection: AdapterSsoConnection): Promise<{ profile: SsoProfile; callbackUrl: string }> {
  const settings = samlSettingsOf(connection)
  const options = ssoSettings(ctx.config).saml
  const { acs } = samlUrls(ctx, connection.id)
  const encoded = bodyString(ctx.request, "SAMLResponse")
  const relayState = bodyString(ctx.request, "RelayState")
  const xml = decodeMessage(encoded, options.maxResponseSize)
  const shape = checkResponseShape(xml, acs, settings.allowIdpInitiated === true)
  await refuseSeenAssertion(ctx.config, connection.id, shape.assertionId)
  let result: Awaited<ReturnType<ReturnType<typeof samlFor>["validatePostResponseAsync"]>>
  try {
    result = await samlFor(ctx, connection).validatePostResponseAsync({ SAMLResponse: encoded as string })
  } catch (error) {
    throw samlFailure(error, connection.id)
  }
  const profile = result.profile
  if (!profile || result.loggedOut) throw new SsoResponseInvalid(`Connection ${connection.id}: the response holds no sign-in`)
  const assertion = checkSignedAssertion(profile, { acsUrl: acs, issuer: settings.entityId, clockSkewMs: options.clockSkewMs })
  await claimAssertion(ctx.config, connection.id, assertion)
  let callbackUrl: string
  if (shape.inResponseTo) {
    const relay = await takeRelay(ctx.config, relayState)
    if (relay && relay.connectionId !== connection.id) throw new SsoResponseInvalid(`Connection ${connection.id}: RelayState belongs to another connection`)
    callbackUrl = relay?.callbackUrl ?? (await resolveCallbackUrl(ctx, ctx.request.origin))
  } else {
    callbackUrl = await unsolicitedTarget(ctx, relayState)
  }
  ctx.callbackUrl = callbackUrl
  return { profile: samlProfileOf(profile, connection.mapping), callbackUrl }
}

export async function samlAcs(ctx: RequestContext, id: string | undefined): Promise<ResponseInternal> {
  let connection: AdapterSsoConnection | undefined
  let accepted: { profile: SsoProfile; callbackUrl: string }
  try {
    connection = await enabledConnection(ctx.config, id, "saml")
    accepted = await consume(ctx, connection)
  } catch (error) {
    const refusal = samlFailure(error, connection?.id ?? String(id))
    audit(ctx.config, { type: "sso.refused", outcome: "failure", reason: reasonOf(refusal), connectionId: connection?.id ?? (typeof id === "string" ? id.slice(0, 64) : undefined) })
    throw refusal
  }
  return completeSsoSignIn(ctx, connection, accepted.profile, accepted.callbackUrl)
}
