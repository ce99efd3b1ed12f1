/**
 * The openid-client `Configuration` of an OIDC connection (issue #28), built the way a configured
 * OIDC provider's is (lib/providers/oauth/client.ts, reused as it is): discovery on the
 * connection's `issuer` (the discovered issuer checked by openid-client), every call through
 * Gatehouse's bounded outbound fetch (timeouts, size cap, redirect checks, the shared discovery
 * and JWKS cache), ID token signatures checked, plain HTTP only for a loopback issuer. A connection
 * becomes a provider record (`sso-<id>`, its client secret opened once) kept per resolved
 * configuration and connection, rebuilt when the connection's `updatedAt` changes; the record's
 * configuration is cached, shared by concurrent sign-ins and refreshed hourly by that module.
 */
import type * as client from "openid-client"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { OAuthProviderConfig } from "../../providers/types.js"
import { oauthConfiguration } from "../../providers/oauth/client.js"
import { bindProviders } from "../../telemetry/outbound.js"
import type { AdapterSsoConnection, OidcSettings } from "../adapter.js"
import { InvalidSsoConnection } from "../errors.js"
import { openSecret } from "../secret.js"
import { ssoProviderId } from "../signin.js"

/** Connections remembered per configuration; the oldest is dropped past this. */
const MAX_CONNECTIONS = 1000

interface Entry {
  updatedAt: number
  provider: Promise<OAuthProviderConfig>
}

const records = new WeakMap<ResolvedConfig, Map<string, Entry>>()

/** The connection's OIDC settings, checked (a malformed stored record is `InvalidSsoConnection`). */
export function oidcSettings(connection: AdapterSsoConnection): OidcSettings {
  const settings = connection.settings as Partial<OidcSettings> | undefined
  const issuer = settings?.issuer
  let url: URL | undefined
  try {
    url = typeof issuer === "string" ? new URL(issuer) : undefined
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) throw new InvalidSsoConnection(`Connection ${connection.id}: the issuer is not an http(s) URL`)
  if (typeof settings?.clientId !== "string" || !settings.clientId) throw new InvalidSsoConnection(`Connection ${connection.id}: no client id`)
  if (typeof settings.clientSecret !== "string" || !settings.clientSecret) throw new InvalidSsoConnection(`Connection ${connection.id}: no client secret`)
  if (settings.scopes !== undefined && (!Array.isArray(settings.scopes) || !settings.scopes.every((scope) => typeof scope === "string" && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope)))) {
    throw new InvalidSsoConnection(`Connection ${connection.id}: scopes must be a list of scope names`)
  }
  return settings as OidcSettings
}

async function providerOf(config: ResolvedConfig, connection: AdapterSsoConnection): Promise<OAuthProviderConfig> {
  const settings = oidcSettings(connection)
  const provider: OAuthProviderConfig = {
    id: ssoProviderId(connection),
    name: connection.name,
    type: "oidc",
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: await openSecret(config, settings.clientSecret),
  }
  bindProviders([provider], config.telemetry)
  return provider
}

/** The provider record of the connection as it is now (built once per `updatedAt`). */
function recordOf(config: ResolvedConfig, connection: AdapterSsoConnection): Promise<OAuthProviderConfig> {
  let byId = records.get(config)
  if (!byId) records.set(config, (byId = new Map()))
  const updatedAt = new Date(connection.updatedAt).getTime()
  const held = byId.get(connection.id)
  if (held && held.updatedAt === updatedAt) return held.provider
  const provider = providerOf(config, connection)
  byId.delete(connection.id)
  byId.set(connection.id, { updatedAt, provider })
  provider.catch(() => {
    if (byId.get(connection.id)?.provider === provider) byId.delete(connection.id)
  })
  while (byId.size > MAX_CONNECTIONS) byId.delete(byId.keys().next().value as string)
  return provider
}

/** The connection's openid-client configuration (discovered on first use). */
export async function oidcConfiguration(config: ResolvedConfig, connection: AdapterSsoConnection): Promise<client.Configuration> {
  const provider = await recordOf(config, connection)
  return oauthConfiguration(provider, (message) => config.logger.debug(message))
}
