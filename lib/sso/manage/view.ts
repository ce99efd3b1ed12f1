/**
 * A connection and an organization's SSO settings as their admins see them (issue #28): every
 * setting but the OIDC client secret (only whether one is set), and the URLs to give the identity
 * provider (SAML: the SP metadata, the assertion consumer, single logout; OIDC: the redirect URI).
 */
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { Actor } from "../../organizations/access.js"
import type { AdapterSsoConnection, OidcSettings, SamlSettings, SsoMapping } from "../adapter.js"
import { ssoStorage } from "../access.js"
import { placeToManage } from "./connection-rules.js"
import { domainView, type DomainView } from "./domain-rules.js"

export interface ConnectionView {
  id: string
  organizationId: string
  type: "saml" | "oidc"
  name: string
  enabled: boolean
  settings: SamlSettings | (Omit<OidcSettings, "clientSecret"> & { clientSecretSet: boolean })
  mapping: SsoMapping | null
  urls: Record<string, string>
  createdAt: Date
  updatedAt: Date
}

export interface SsoSettingsView {
  organizationId: string
  connections: ConnectionView[]
  domains: DomainView[]
}

export function connectionView(baseUrl: string, connection: AdapterSsoConnection): ConnectionView {
  const id = encodeURIComponent(connection.id)
  let settings: ConnectionView["settings"]
  let urls: Record<string, string>
  if (connection.type === "saml") {
    settings = { ...(connection.settings as SamlSettings) }
    // The SP's entity id is its metadata URL (saml/instance.ts).
    const base = `${baseUrl}/sso/saml/${id}`
    urls = { metadata: `${base}/metadata`, acs: `${base}/acs`, slo: `${base}/slo`, entityId: `${base}/metadata` }
  } else {
    const { clientSecret, ...rest } = connection.settings as OidcSettings
    settings = { ...rest, clientSecretSet: typeof clientSecret === "string" && clientSecret.length > 0 }
    urls = { redirectUri: `${baseUrl}/sso/oidc/${id}/callback` }
  }
  return {
    id: connection.id,
    organizationId: connection.organizationId,
    type: connection.type,
    name: connection.name,
    enabled: connection.enabled,
    settings,
    mapping: connection.mapping ?? null,
    urls,
    createdAt: connection.createdAt,
    updatedAt: connection.updatedAt,
  }
}

/** The organization's connections and domains, for someone who may update it. */
export async function listSettings(config: ResolvedConfig, baseUrl: string, organizationId: unknown, actor: Actor): Promise<SsoSettingsView> {
  const place = await placeToManage(config, organizationId, actor)
  const storage = ssoStorage(config)
  const [connections, domains] = await Promise.all([storage.listSsoConnections(place.organization.id), storage.listDomains(place.organization.id)])
  return {
    organizationId: place.organization.id,
    connections: connections.map((connection) => connectionView(baseUrl, connection)),
    domains: domains.map((claim) => domainView(config, claim)),
  }
}
