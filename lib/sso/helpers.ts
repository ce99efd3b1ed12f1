/**
 * Enterprise sign-in for the app's server code (issue #28), exported by `gatehouse`: managing an
 * organization's SSO connections and domains acting for no user (seeding, a back office, an
 * admin tool of the app's own). They skip the permission and recent sign-in checks, and keep every
 * other rule: the fields are checked as the actions check them, a connection or domain must
 * belong to the organization named, a domain is verified by its DNS record and by one
 * organization at most. Each change is audited (without a `userId`).
 * These resolve the app's configuration, so nothing inside Gatehouse imports this file.
 */
import type { AuthConfig, AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { resolveConfig } from "../core/config/resolve.js"
import type { AdapterSsoConnection } from "./adapter.js"
import { SsoConnectionNotFound } from "./errors.js"
import type { ConnectionInput } from "./manage/fields.js"
import * as connections from "./manage/connection-rules.js"
import * as domains from "./manage/domain-rules.js"
import type { DomainView } from "./manage/domain-rules.js"
import { connectionView, listSettings, type ConnectionView, type SsoSettingsView } from "./manage/view.js"

export type { ConnectionInput as SsoConnectionInput } from "./manage/fields.js"
export type { ConnectionView as SsoConnectionView, SsoSettingsView } from "./manage/view.js"
export type { DomainView as SsoDomainView } from "./manage/domain-rules.js"

async function resolved(config: AuthConfigInput): Promise<ResolvedConfig> {
  return resolveConfig((typeof config === "function" ? await config() : config) as AuthConfig)
}

/** Where the connections' URLs start: `options.baseUrl`, else AUTH_URL's origin and the base path, else the base path alone. */
function baseUrlOf(config: ResolvedConfig, baseUrl: string | undefined): string {
  if (baseUrl) return baseUrl.replace(/\/+$/, "")
  const path = config.basePath === "/" ? "" : config.basePath
  return config.authUrl ? `${config.authUrl.origin}${path}` : path
}

export interface SsoHelperOptions {
  /** The site's URL and base path (`https://app.example.com/auth`), for the connection's URLs in the answer. */
  baseUrl?: string
}

export interface SsoConnectionResult {
  connection: ConnectionView
  /** What the admin should know (an expired certificate, still accepted). */
  warnings: string[]
}

function result(config: ResolvedConfig, options: SsoHelperOptions, made: { connection: AdapterSsoConnection; warnings: string[] }): SsoConnectionResult {
  return { connection: connectionView(baseUrlOf(config, options.baseUrl), made.connection), warnings: made.warnings }
}

/** Creates a SAML or OIDC connection for `organizationId` (`type`, `name`, then `metadataXml` | `metadataUrl` | `entityId` + `ssoUrl` + `certificate`, or `issuer` + `clientId` + `clientSecret`). */
export async function createSsoConnection(config: AuthConfigInput, input: ConnectionInput & { organizationId: string }, options: SsoHelperOptions = {}): Promise<SsoConnectionResult> {
  const resolvedConfig = await resolved(config)
  return result(resolvedConfig, options, await connections.createConnection(resolvedConfig, input.organizationId, input, null))
}

/** Changes the fields given of connection `connectionId` (of `organizationId`: another organization's is SsoConnectionNotFound). */
export async function updateSsoConnection(config: AuthConfigInput, input: ConnectionInput & { organizationId: string; connectionId: string }, options: SsoHelperOptions = {}): Promise<SsoConnectionResult> {
  const resolvedConfig = await resolved(config)
  await ownConnection(resolvedConfig, input.organizationId, input.connectionId)
  return result(resolvedConfig, options, await connections.updateConnection(resolvedConfig, input.connectionId, input, null))
}

/** Deletes connection `connectionId` of `organizationId`. */
export async function deleteSsoConnection(config: AuthConfigInput, input: { organizationId: string; connectionId: string }): Promise<void> {
  const resolvedConfig = await resolved(config)
  await ownConnection(resolvedConfig, input.organizationId, input.connectionId)
  await connections.deleteConnection(resolvedConfig, input.connectionId, null)
}

/** The connection must belong to the organization named. */
async function ownConnection(config: ResolvedConfig, organizationId: string, connectionId: string): Promise<void> {
  const { connection } = await connections.connectionToManage(config, connectionId, null)
  if (connection.organizationId !== organizationId) {
    throw new SsoConnectionNotFound("No such connection in this organization")
  }
}

/** Claims `domain` for the organization: the answer names the TXT record to publish. */
export async function addDomain(config: AuthConfigInput, input: { organizationId: string; domain: string }): Promise<DomainView> {
  return domains.addDomain(await resolved(config), input.organizationId, input.domain, null)
}

/** Looks the TXT record up and marks the domain verified (DomainNotVerified, DomainTaken). */
export async function verifyDomain(config: AuthConfigInput, input: { organizationId: string; domain: string }): Promise<DomainView> {
  return domains.verifyDomain(await resolved(config), input.organizationId, input.domain, null)
}

/** Turns SSO enforcement on or off for a verified domain of the organization. */
export async function setDomainEnforcement(config: AuthConfigInput, input: { organizationId: string; domain: string; enforce: boolean }): Promise<DomainView> {
  return domains.setDomainEnforcement(await resolved(config), input.organizationId, input.domain, input.enforce, null)
}

/** Removes the organization's claim of `domain`. */
export async function removeDomain(config: AuthConfigInput, input: { organizationId: string; domain: string }): Promise<void> {
  await domains.removeDomain(await resolved(config), input.organizationId, input.domain, null)
}

/** The organization's connections (without client secrets) and domains. */
export async function listSsoSettings(config: AuthConfigInput, organizationId: string, options: SsoHelperOptions = {}): Promise<SsoSettingsView> {
  const resolvedConfig = await resolved(config)
  return listSettings(resolvedConfig, baseUrlOf(resolvedConfig, options.baseUrl), organizationId, null)
}
