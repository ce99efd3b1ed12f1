/**
 * Starting a sign-in through an OIDC connection (issue #28): the authorization request (code
 * flow, PKCE S256, a nonce), its `state` the id of the relay in the shared store that keeps the
 * connection, where to go afterwards, the PKCE verifier and the nonce (relay.ts). Nothing of the
 * flow is taken from the request, except the address the person typed, sent as `login_hint`. An
 * issuer that cannot be discovered is `SsoResponseInvalid` (or the named outbound error).
 */
import * as client from "openid-client"
import type { RequestContext } from "../../core/context.js"
import { bodyString } from "../../core/request.js"
import type { AdapterSsoConnection } from "../adapter.js"
import { AuthError } from "../../core/errors.js"
import { outboundFailure } from "../../outbound/failure.js"
import { SsoResponseInvalid } from "../errors.js"
import { saveRelay } from "../relay.js"
import { oidcConfiguration, oidcSettings } from "./client.js"

const BASE_SCOPES = ["openid", "email", "profile"]

/** The connection's redirect URI, to register at the identity provider. */
export function oidcRedirectUri(ctx: Pick<RequestContext, "baseUrl">, connection: Pick<AdapterSsoConnection, "id">): string {
  return `${ctx.baseUrl}/sso/oidc/${connection.id}/callback`
}

/** The address typed on "Sign in with SSO", if one was. */
function loginHint(ctx: RequestContext): string | undefined {
  const typed = (bodyString(ctx.request, "identifier") ?? bodyString(ctx.request, "email") ?? "").trim()
  return typed.includes("@") && typed.length <= 320 ? typed : undefined
}

export async function startOidc(ctx: RequestContext, connection: AdapterSsoConnection, callbackUrl: string): Promise<string> {
  const settings = oidcSettings(connection)
  const configuration = await oidcConfiguration(ctx.config, connection).catch((cause: unknown) => {
    // An issuer that cannot be discovered is a named page (or the outbound error), never a 500.
    if (cause instanceof AuthError) throw cause
    throw outboundFailure(cause) ?? new SsoResponseInvalid(`Connection ${connection.id}: the issuer's discovery document could not be read`, { cause: { err: cause } })
  })
  const codeVerifier = client.randomPKCECodeVerifier()
  const nonce = client.randomNonce()
  const state = await saveRelay(ctx.config, { connectionId: connection.id, callbackUrl, codeVerifier, nonce })
  const hint = loginHint(ctx)
  const params: Record<string, string> = {
    response_type: "code",
    redirect_uri: oidcRedirectUri(ctx, connection),
    scope: [...new Set([...BASE_SCOPES, ...(settings.scopes ?? [])])].join(" "),
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    ...(hint && { login_hint: hint }),
  }
  return client.buildAuthorizationUrl(configuration, params).href
}
