/**
 * The app as a SAML service provider for one connection (issue #28): a node-saml `SAML` built from
 * the connection's settings and the `sso.saml` options, kept per process and rebuilt when the
 * connection changes (its id + `updatedAt`) or is reached under another base URL. The IdP's
 * certificates are pinned from the connection (node-saml never trusts `KeyInfo`), the assertion
 * must be signed, request ids live in the shared store (an answer to a request made on another
 * process is recognised), and unsolicited answers are refused unless the connection allows
 * IdP-initiated sign-in.
 */
import { SAML, ValidateInResponseTo } from "@node-saml/node-saml"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { RequestContext } from "../../core/context.js"
import type { AdapterSsoConnection, SamlSettings } from "../adapter.js"
import { ssoSettings } from "../access.js"
import { InvalidSsoConnection } from "../errors.js"
import { RELAY_SECONDS, samlRequestCache } from "../relay.js"

/** An assertion older than this (from its IssueInstant) is refused, whatever its NotOnOrAfter says. */
export const MAX_ASSERTION_AGE_MS = 60 * 60 * 1000

/** Instances kept per configuration (at most this many, the oldest dropped first). */
const MAX_INSTANCES = 256

const instances = new WeakMap<ResolvedConfig, Map<string, SAML>>()

/** The connection's SP URLs under this request's base URL. */
export function samlUrls(ctx: Pick<RequestContext, "baseUrl">, connectionId: string): { acs: string; entityId: string; slo: string } {
  const base = `${ctx.baseUrl}/sso/saml/${encodeURIComponent(connectionId)}`
  return { acs: `${base}/acs`, entityId: `${base}/metadata`, slo: `${base}/slo` }
}

export function samlSettingsOf(connection: AdapterSsoConnection): SamlSettings {
  const settings = connection.settings as Partial<SamlSettings> | undefined
  if (connection.type !== "saml" || !settings || typeof settings.entityId !== "string" || typeof settings.ssoUrl !== "string" || !Array.isArray(settings.certificates) || !settings.certificates.length) {
    throw new InvalidSsoConnection(`Connection ${connection.id} has no complete SAML settings`)
  }
  return settings as SamlSettings
}

function build(ctx: RequestContext, connection: AdapterSsoConnection): SAML {
  const settings = samlSettingsOf(connection)
  const options = ssoSettings(ctx.config).saml
  const urls = samlUrls(ctx, connection.id)
  const signing = settings.signRequests && options.signingKey ? { privateKey: options.signingKey, publicCert: options.signingCert } : {}
  return new SAML({
    callbackUrl: urls.acs,
    issuer: urls.entityId,
    audience: urls.entityId,
    entryPoint: settings.ssoUrl,
    idpCert: [...settings.certificates],
    idpIssuer: settings.entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: options.clockSkewMs,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    validateInResponseTo: settings.allowIdpInitiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    cacheProvider: samlRequestCache(ctx.config, connection.id),
    requestIdExpirationPeriodMs: RELAY_SECONDS * 1000,
    signatureAlgorithm: "sha256",
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
    ...signing,
    logoutUrl: settings.sloUrl || settings.ssoUrl,
    logoutCallbackUrl: urls.slo,
    disableRequestedAuthnContext: true,
    identifierFormat: settings.nameIdFormat ?? null,
  })
}

/** The connection's `SAML`, built once per (connection, version, base URL). */
export function samlFor(ctx: RequestContext, connection: AdapterSsoConnection): SAML {
  let cache = instances.get(ctx.config)
  if (!cache) instances.set(ctx.config, (cache = new Map()))
  const key = `${connection.id}\n${new Date(connection.updatedAt).getTime()}\n${ctx.baseUrl}`
  const cached = cache.get(key)
  if (cached) return cached
  const saml = build(ctx, connection)
  // An older version of the connection is never asked for again.
  for (const old of [...cache.keys()]) if (old.startsWith(`${connection.id}\n`)) cache.delete(old)
  if (cache.size >= MAX_INSTANCES) cache.delete(cache.keys().next().value as string)
  cache.set(key, saml)
  return saml
}
