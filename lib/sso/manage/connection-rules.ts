/**
 * Creating, changing and deleting an organization's SSO connections (issue #28), for the
 * `sso/connections/<verb>` actions and the server helpers. The actor must hold
 * `organization:update` in the organization (a non-member is told it does not exist); a
 * connection of another organization is "not found". `actor` null is the app's server code:
 * trusted, still bound by every check of the fields. The OIDC client secret is sealed before it is
 * stored (secret.ts) and never answered. Each change is audited.
 */
import { randomBytes } from "node:crypto"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import { audit } from "../../audit/emit.js"
import { demand, standing, type Actor, type Standing } from "../../organizations/access.js"
import type { AdapterSsoConnection, OidcSettings, SamlSettings, SsoConnectionUpdate, SsoMapping } from "../adapter.js"
import { ssoSettings, ssoStorage } from "../access.js"
import { InvalidSsoConnection, SsoConnectionNotFound } from "../errors.js"
import { parseSamlMetadata, type SamlMetadata } from "../saml-metadata.js"
import { sealSecret } from "../secret.js"
import { certificate, flag, given, roleMapping, scopes, text, url, type ConnectionInput } from "./fields.js"
import { fetchMetadata } from "./metadata-url.js"

/** A connection changed, and what the admin should know of it (an expired certificate). */
export interface ConnectionChange {
  connection: AdapterSsoConnection
  warnings: string[]
}

const ID = /^[A-Za-z0-9_-]{1,64}$/

function newConnectionId(): string {
  return randomBytes(12).toString("base64url")
}

/** The organization (checked: the actor may update it). */
export async function placeToManage(config: ResolvedConfig, organizationId: unknown, actor: Actor): Promise<Standing> {
  ssoSettings(config)
  const place = await standing(config, organizationId, actor)
  demand(place, "organization:update")
  return place
}

/** The connection `id` of the organization the actor may update; another organization's is "not found". */
export async function connectionToManage(config: ResolvedConfig, connectionId: unknown, actor: Actor): Promise<{ place: Standing; connection: AdapterSsoConnection }> {
  if (typeof connectionId !== "string" || !ID.test(connectionId)) throw new SsoConnectionNotFound("The request names no connection (connectionId)")
  const connection = await ssoStorage(config).getSsoConnection(connectionId)
  if (!connection) throw new SsoConnectionNotFound("No such connection")
  let place: Standing
  try {
    place = await standing(config, connection.organizationId, actor)
  } catch {
    // Someone who is not a member of its organization learns nothing of it.
    throw new SsoConnectionNotFound("No such connection")
  }
  demand(place, "organization:update")
  return { place, connection }
}

async function metadataOf(input: ConnectionInput): Promise<SamlMetadata | undefined> {
  if (given(input.metadataXml)) return parseSamlMetadata(input.metadataXml)
  if (given(input.metadataUrl)) return parseSamlMetadata(await fetchMetadata(input.metadataUrl))
  return undefined
}

/** SAML settings from the input, over `base` (an update keeps what it does not send). */
async function samlSettings(config: ResolvedConfig, input: ConnectionInput, base: SamlSettings | undefined, warnings: string[]): Promise<SamlSettings> {
  const metadata = await metadataOf(input)
  const settings: Partial<SamlSettings> = { ...base }
  if (metadata) {
    settings.entityId = metadata.entityId
    settings.ssoUrl = url(metadata.ssoUrl, "metadata's SingleSignOnService")
    settings.sloUrl = metadata.sloUrl ? url(metadata.sloUrl, "metadata's SingleLogoutService") : null
    settings.certificates = metadata.certificates.map((value, index) => certificate(value, `metadata's certificate ${index + 1}`, warnings))
  }
  // Fields sent one by one override the metadata's.
  if (given(input.entityId)) settings.entityId = text(input.entityId, "entityId", 1024)
  if (given(input.ssoUrl)) settings.ssoUrl = url(input.ssoUrl, "ssoUrl")
  if (input.sloUrl !== undefined) settings.sloUrl = given(input.sloUrl) ? url(input.sloUrl, "sloUrl") : null
  if (given(input.certificate)) {
    const list = Array.isArray(input.certificate) ? input.certificate : [input.certificate]
    if (!list.length || list.length > 4) throw new InvalidSsoConnection("certificate: one to four certificates")
    settings.certificates = list.map((value, index) => certificate(value, list.length > 1 ? `certificate ${index + 1}` : "certificate", warnings))
  }
  if (input.allowIdpInitiated !== undefined) settings.allowIdpInitiated = flag(input.allowIdpInitiated, "allowIdpInitiated")
  if (input.signRequests !== undefined) settings.signRequests = flag(input.signRequests, "signRequests")
  if (input.nameIdFormat !== undefined) settings.nameIdFormat = given(input.nameIdFormat) ? text(input.nameIdFormat, "nameIdFormat", 256) : null
  if (!settings.entityId) throw new InvalidSsoConnection("entityId: required (or metadataXml, or metadataUrl)")
  if (!settings.ssoUrl) throw new InvalidSsoConnection("ssoUrl: required (or metadataXml, or metadataUrl)")
  if (!settings.certificates?.length) throw new InvalidSsoConnection("certificate: required (or metadataXml, or metadataUrl)")
  if (settings.signRequests && !ssoSettings(config).saml.signingKey) throw new InvalidSsoConnection("signRequests: the app has no SP signing key (sso.saml.signingKey)")
  return {
    entityId: settings.entityId,
    ssoUrl: settings.ssoUrl,
    sloUrl: settings.sloUrl ?? null,
    certificates: settings.certificates,
    allowIdpInitiated: settings.allowIdpInitiated ?? false,
    signRequests: settings.signRequests ?? false,
    nameIdFormat: settings.nameIdFormat ?? null,
  }
}

/** OIDC settings from the input, over `base`; a new client secret is sealed. */
async function oidcSettings(config: ResolvedConfig, input: ConnectionInput, base: OidcSettings | undefined): Promise<OidcSettings> {
  const issuer = given(input.issuer) ? url(input.issuer, "issuer") : base?.issuer
  const clientId = given(input.clientId) ? text(input.clientId, "clientId", 512) : base?.clientId
  const clientSecret = given(input.clientSecret) ? await sealSecret(config, text(input.clientSecret, "clientSecret", 2048)) : base?.clientSecret
  if (!issuer) throw new InvalidSsoConnection("issuer: required")
  if (!clientId) throw new InvalidSsoConnection("clientId: required")
  if (!clientSecret) throw new InvalidSsoConnection("clientSecret: required")
  const extra = input.scopes !== undefined ? (given(input.scopes) ? scopes(input.scopes) : []) : base?.scopes
  return { issuer, clientId, clientSecret, ...(extra?.length ? { scopes: extra } : {}) }
}

const MAPPING_FIELDS = [
  ["emailAttribute", "email"],
  ["nameAttribute", "name"],
  ["groupsAttribute", "groups"],
] as const

/** The attribute mapping from the input, over `base`; null when nothing is mapped. An empty field removes its mapping. */
function mappingOf(config: ResolvedConfig, place: Standing, input: ConnectionInput, base: SsoMapping | null | undefined): SsoMapping | null {
  const mapping: SsoMapping = { ...base }
  for (const [field, key] of MAPPING_FIELDS) {
    if (input[field] === undefined) continue
    if (given(input[field])) mapping[key] = text(input[field], field, 256)
    else delete mapping[key]
  }
  if (input.roleMapping !== undefined) {
    const isEmptyObject = typeof input.roleMapping === "object" && input.roleMapping !== null && !Array.isArray(input.roleMapping) && !Object.keys(input.roleMapping).length
    if (given(input.roleMapping) && !(typeof input.roleMapping === "string" && !input.roleMapping.trim()) && !isEmptyObject) mapping.roles = roleMapping(config, place.organization, input.roleMapping)
    else delete mapping.roles
  }
  return Object.keys(mapping).length ? mapping : null
}

export async function createConnection(config: ResolvedConfig, organizationId: unknown, input: ConnectionInput, actor: Actor): Promise<ConnectionChange> {
  const place = await placeToManage(config, organizationId, actor)
  if (input.type !== "saml" && input.type !== "oidc") throw new InvalidSsoConnection(`type: must be "saml" or "oidc"`)
  const name = text(input.name, "name", 100)
  const warnings: string[] = []
  const settings = input.type === "saml" ? await samlSettings(config, input, undefined, warnings) : await oidcSettings(config, input, undefined)
  const now = new Date()
  const connection: AdapterSsoConnection = {
    id: newConnectionId(),
    organizationId: place.organization.id,
    type: input.type,
    name,
    enabled: input.enabled === undefined ? true : flag(input.enabled, "enabled"),
    settings,
    mapping: mappingOf(config, place, input, null),
    createdAt: now,
    updatedAt: now,
  }
  const stored = await ssoStorage(config).createSsoConnection(connection)
  audit(config, { type: "sso.connection_created", userId: actor?.userId, organizationId: stored.organizationId, connectionId: stored.id })
  return { connection: stored, warnings }
}

export async function updateConnection(config: ResolvedConfig, connectionId: unknown, input: ConnectionInput, actor: Actor): Promise<ConnectionChange> {
  const { place, connection } = await connectionToManage(config, connectionId, actor)
  if (input.type !== undefined && input.type !== connection.type) throw new InvalidSsoConnection("type: a connection's type cannot change; create another connection")
  const warnings: string[] = []
  const changes: SsoConnectionUpdate = { updatedAt: new Date() }
  if (input.name !== undefined) changes.name = text(input.name, "name", 100)
  if (input.enabled !== undefined) changes.enabled = flag(input.enabled, "enabled")
  changes.settings =
    connection.type === "saml"
      ? await samlSettings(config, input, connection.settings as SamlSettings, warnings)
      : await oidcSettings(config, input, connection.settings as OidcSettings)
  changes.mapping = mappingOf(config, place, input, connection.mapping)
  const updated = await ssoStorage(config).updateSsoConnection(connection.id, changes)
  if (!updated) throw new SsoConnectionNotFound("The connection was deleted meanwhile")
  audit(config, { type: "sso.connection_updated", userId: actor?.userId, organizationId: updated.organizationId, connectionId: updated.id })
  return { connection: updated, warnings }
}

export async function deleteConnection(config: ResolvedConfig, connectionId: unknown, actor: Actor): Promise<AdapterSsoConnection> {
  const { connection } = await connectionToManage(config, connectionId, actor)
  await ssoStorage(config).deleteSsoConnection(connection.id)
  audit(config, { type: "sso.connection_deleted", userId: actor?.userId, organizationId: connection.organizationId, connectionId: connection.id })
  return connection
}
