/**
 * The organization page's SSO section (issue #28): plain data for views/partials/org-sso.ejs,
 * which lib/organizations/views/organization.ejs includes. Shown only with the `sso` option on and
 * to a viewer who holds `organization:update`; the management actions (lib/sso/manage/) decide
 * again whatever a form sends. Two adapter calls: the organization's connections and its domains.
 * Each connection shows the URLs its identity provider needs (SAML: the ACS URL, the entity id and
 * the metadata URL; OIDC: the redirect URI); each domain, the TXT record that proves it.
 */
import type { RequestContext } from "../core/context.js"
import type { MessageKey, Messages } from "../i18n/index.js"
import type { AdapterDomain, AdapterSsoConnection } from "./adapter.js"
import { ssoStorage } from "./access.js"
import { txtName, txtValue } from "./dns.js"

export interface SsoUrl {
  /** Stable id of the read-only field (`sso-connection-<id>-acs`). */
  id: string
  label: string
  value: string
}

export interface SsoConnectionItem {
  id: string
  name: string
  typeLabel: string
  enabled: boolean
  urls: SsoUrl[]
  groupsAttribute: string
  /** `Group=role`, one per line. */
  roleMapping: string
}

export interface SsoDomainItem {
  domain: string
  verified: boolean
  enforced: boolean
  txt: { name: string; value: string }
}

export interface SsoSection {
  /** `<base>/sso`: the forms post to `<action>/connections/<verb>` and `<action>/domains/<verb>`. */
  action: string
  connections: SsoConnectionItem[]
  domains: SsoDomainItem[]
  /** The status line of an SSO form that came back (`?saved=sso-<verb>`, `?error=<Type>`). */
  status: { saved?: string; error?: string }
}

/** The app's URLs of a connection, to paste into the identity provider. The SP entity id is its metadata URL. */
export function connectionUrls(baseUrl: string, connection: Pick<AdapterSsoConnection, "id" | "type">): { acs?: string; entityId?: string; metadata?: string; redirect?: string } {
  const id = encodeURIComponent(connection.id)
  if (connection.type === "saml") {
    const metadata = `${baseUrl}/sso/saml/${id}/metadata`
    return { acs: `${baseUrl}/sso/saml/${id}/acs`, entityId: metadata, metadata }
  }
  return { redirect: `${baseUrl}/sso/oidc/${id}/callback` }
}

const SAVED: Readonly<Record<string, MessageKey>> = Object.freeze({
  "sso-create": "sso.org.saved.create",
  "sso-update": "sso.org.saved.update",
  "sso-delete": "sso.org.saved.delete",
  "sso-add": "sso.org.saved.add",
  "sso-verify": "sso.org.saved.verify",
  "sso-enforce": "sso.org.saved.enforce",
  "sso-remove": "sso.org.saved.remove",
})

/** The SSO forms' own refusals; their texts are the error page's messages. */
const ERRORS = new Set(["DomainTaken", "DomainNotVerified", "InvalidSsoConnection", "SsoConnectionNotFound", "SsoUnavailable"])

/**
 * The status line when the query is an SSO form's (never the query's own text); undefined for any
 * other, which the organization page says at its top as it always did.
 */
export function ssoStatus(t: Messages, saved: string | undefined, error: string | undefined): { saved?: string; error?: string } | undefined {
  if (error) return ERRORS.has(error) ? { error: t[`error.${error}.message` as MessageKey] } : undefined
  if (saved && Object.prototype.hasOwnProperty.call(SAVED, saved)) return { saved: t[SAVED[saved]!] }
  return undefined
}

function connectionItem(ctx: RequestContext, connection: AdapterSsoConnection, t: Messages): SsoConnectionItem {
  const urls = connectionUrls(ctx.baseUrl, connection)
  const field = (kind: keyof typeof urls, label: MessageKey): SsoUrl[] => (urls[kind] ? [{ id: `sso-connection-${connection.id}-${kind}`, label: t[label], value: urls[kind] }] : [])
  const roles = connection.mapping?.roles ?? {}
  return {
    id: connection.id,
    name: connection.name,
    typeLabel: connection.type === "saml" ? t["sso.org.type.saml"] : t["sso.org.type.oidc"],
    enabled: connection.enabled,
    urls: [...field("acs", "sso.org.urls.acs"), ...field("entityId", "sso.org.urls.entityId"), ...field("metadata", "sso.org.urls.metadata"), ...field("redirect", "sso.org.urls.redirect")],
    groupsAttribute: connection.mapping?.groups ?? "",
    roleMapping: Object.entries(roles)
      .map(([group, role]) => `${group}=${role}`)
      .join("\n"),
  }
}

function domainItem(ctx: RequestContext, domain: AdapterDomain): SsoDomainItem {
  return {
    domain: domain.domain,
    verified: domain.verifiedAt !== null && domain.verifiedAt !== undefined,
    enforced: domain.enforceSso,
    txt: { name: txtName(ctx.config, domain.domain), value: txtValue(domain.token) },
  }
}

/** The section for this viewer, or undefined (the option is off, or they may not change the organization). */
export async function ssoSection(
  ctx: RequestContext,
  input: { organizationId: string; permissions: ReadonlySet<string>; t: Messages; saved?: string; error?: string },
): Promise<SsoSection | undefined> {
  if (!ctx.config.sso || !input.permissions.has("organization:update")) return undefined
  const storage = ssoStorage(ctx.config)
  const [connections, domains] = await Promise.all([storage.listSsoConnections(input.organizationId), storage.listDomains(input.organizationId)])
  return {
    action: `${ctx.baseUrl}/sso`,
    connections: connections.map((connection) => connectionItem(ctx, connection, input.t)),
    domains: domains.map((domain) => domainItem(ctx, domain)),
    status: ssoStatus(input.t, input.saved, input.error) ?? {},
  }
}
