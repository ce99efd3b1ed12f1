/**
 * `GET sso/oidc/<id>/callback` (issue #28): an OIDC connection's identity provider answers. The
 * connection must be enabled and of type `oidc`; the `state` must name a relay of this connection
 * (taken once: a second use of the same answer is refused); an `error` answer (`access_denied`)
 * ends here; then the code exchange on openid-client, with the relay's PKCE verifier and nonce
 * (the ID token's signature, issuer, audience, expiry and nonce checked there, its `iat` here),
 * and the ID token's claims become the profile (`SsoProfile`), with the userinfo endpoint's when
 * the token carries no address. Every refusal is `SsoResponseInvalid` (or a named outbound error:
 * a timeout, an oversized answer), audited as `sso.refused` with the connection id, never a 500.
 */
import * as client from "openid-client"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { AuthError } from "../../core/errors.js"
import { audit, reasonOf } from "../../audit/emit.js"
import { outboundFailure } from "../../outbound/failure.js"
import { enabledConnection } from "../access.js"
import type { AdapterSsoConnection } from "../adapter.js"
import { SsoResponseInvalid } from "../errors.js"
import type { SsoProfile } from "../profile.js"
import { takeRelay, type SsoRelay } from "../relay.js"
import { completeSsoSignIn } from "../signin.js"
import { oidcConfiguration } from "./client.js"
import { oidcRedirectUri } from "./start.js"

/** Seconds of clock difference tolerated on the ID token's `iat` (as for configured providers). */
const ID_TOKEN_CLOCK_SKEW = 60
const MAX_SUBJECT_LENGTH = 255
const MAX_GROUPS = 200
const MAX_TEXT_LENGTH = 320

/** A parameter sent exactly once, else undefined. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name)
  return values.length === 1 ? values[0] : undefined
}

/** The provider's `error` code as recorded: RFC 6749's characters, bounded; never its description. */
function errorCode(value: string | undefined): string {
  return value && /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(value) ? value : "unknown"
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() && value.length <= MAX_TEXT_LENGTH ? value.trim() : undefined
}

function groupsOf(value: unknown): string[] | undefined {
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined
  if (!list) return undefined
  return list.filter((group): group is string => typeof group === "string" && group.length > 0 && group.length <= MAX_TEXT_LENGTH).slice(0, MAX_GROUPS)
}

/** The claims as the person's profile, through the connection's mapping. */
export function profileOf(connection: AdapterSsoConnection, claims: Record<string, unknown>): SsoProfile {
  const subject = claims.sub
  if (typeof subject !== "string" || !subject || subject.length > MAX_SUBJECT_LENGTH) throw new SsoResponseInvalid(`Connection ${connection.id}: the ID token has no usable subject`)
  const mapping = connection.mapping ?? {}
  // The address is passed on whether or not the provider says it verified it: what proves it is
  // the organization's verified domain (completeSsoSignIn), the claim is kept in `attributes`.
  const email = text(claims[mapping.email ?? "email"])?.toLowerCase()
  const name = text(claims[mapping.name ?? "name"])
  const groups = groupsOf(claims[mapping.groups ?? "groups"])
  return { subject, ...(email?.includes("@") && { email }), ...(name && { name }), ...(groups && { groups }), attributes: claims }
}

/** The code exchange and the claims (ID token, then userinfo when the token has no address). */
async function exchange(ctx: RequestContext, connection: AdapterSsoConnection, relay: SsoRelay, params: URLSearchParams): Promise<Record<string, unknown>> {
  const configuration = await oidcConfiguration(ctx.config, connection)
  const current = new URL(oidcRedirectUri(ctx, connection))
  params.forEach((value, key) => current.searchParams.append(key, value))
  const tokens = await client.authorizationCodeGrant(configuration, current, {
    pkceCodeVerifier: relay.codeVerifier,
    expectedState: single(params, "state"),
    expectedNonce: relay.nonce,
    idTokenExpected: true,
  })
  const claims = tokens.claims() as Record<string, unknown> | undefined
  if (!claims) throw new SsoResponseInvalid(`Connection ${connection.id}: the identity provider returned no ID token`)
  // openid-client only checks that `iat` is a number: an ID token from the future is refused.
  if (typeof claims.iat === "number" && claims.iat > Date.now() / 1000 + ID_TOKEN_CLOCK_SKEW) {
    throw new SsoResponseInvalid(`Connection ${connection.id}: the ID token was issued in the future (iat)`)
  }
  const emailClaim = connection.mapping?.email ?? "email"
  if (claims[emailClaim] === undefined && configuration.serverMetadata().userinfo_endpoint && tokens.access_token && typeof claims.sub === "string") {
    // openid-client checks that the userinfo's `sub` is the ID token's; the ID token's claims win.
    return { ...(await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)), ...claims }
  }
  return { ...claims }
}

export async function oidcCallback(ctx: RequestContext, id: string | undefined): Promise<ResponseInternal> {
  const connection = await enabledConnection(ctx.config, id, "oidc")
  const params = ctx.request.query
  let profile: SsoProfile
  let relay: SsoRelay | null
  try {
    // Taken first, whatever the answer: a state is good for one answer only.
    relay = await takeRelay(ctx.config, single(params, "state"))
    if (params.has("error")) {
      throw new SsoResponseInvalid(`Connection ${connection.id}: the identity provider answered ${errorCode(single(params, "error"))}`, {
        cause: { error: errorCode(single(params, "error")), error_description: single(params, "error_description")?.slice(0, 300) },
      })
    }
    if (!relay || relay.connectionId !== connection.id || !relay.codeVerifier || !relay.nonce) {
      throw new SsoResponseInvalid(`Connection ${connection.id}: the state names no sign-in started here through this connection (unknown, expired or used already)`)
    }
    profile = profileOf(connection, await exchange(ctx, connection, relay, params))
  } catch (cause) {
    const error =
      cause instanceof SsoResponseInvalid
        ? cause
        : (outboundFailure(cause) ??
          (cause instanceof AuthError ? cause : new SsoResponseInvalid(`Connection ${connection.id}: the identity provider's answer failed a check`, { cause: { err: cause } })))
    const providerError = params.has("error") ? errorCode(single(params, "error")) : undefined
    audit(ctx.config, { type: "sso.refused", outcome: "failure", reason: reasonOf(error), connectionId: connection.id, organizationId: connection.organizationId, ...(providerError && { providerError }) })
    throw error
  }
  return completeSsoSignIn(ctx, connection, profile, relay.callbackUrl)
}
