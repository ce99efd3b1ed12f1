/**
 * Organizations for the app's own code (issue #27), exported by `gatehouse`:
 * - `hasPermission(req, "project:write")`: the active organization's role grants it (after
 *   `authSession` or `requireAuth` read the session; no round trip);
 * - `organizationAction(req, res, config, action, fields)`: any `POST organizations/<action>` as
 *   the signed-in user, with the same rules (a refusal is thrown as its named error), for apps that
 *   draw their own pages; `switchOrganization(req, res, config, id)` is one of them;
 * - server code, acting for no user (seeding, a back office, a sign-up hook): `createOrganization`,
 *   `updateOrganization`, `deleteOrganization`, `addMember`, `setMemberRole`, `removeMember`,
 *   `transferOwnership`, `inviteMember`, `listOrganizations`, `getOrganization`. These skip the
 *   permission checks but keep every rule (the last owner stays; ids must match).
 * These resolve the app's configuration, so nothing inside Gatehouse imports this file.
 */
import type { AuthConfig, AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { resolveConfig } from "../core/config/resolve.js"
import { dispatch } from "../core/dispatch.js"
import { setCookieLines } from "../core/set-cookie.js"
import { resolveFor } from "../express/config.js"
import { toInternalRequest } from "../express/request.js"
import { appendSetCookie } from "../express/respond.js"
import type { GatehouseRequest, GatehouseResponse } from "../express/types.js"
import { defaultI18n } from "../i18n/index.js"
import type { AdapterMember, AdapterOrganization } from "./adapter.js"
import { settingsOf, storageOf } from "./access.js"
import { holds } from "./guard.js"
import { invite, type SentInvitation } from "./invitations.js"
import * as manage from "./manage.js"
import * as members from "./members.js"
import { membershipCache, type ActiveOrganization } from "./memberships.js"
import { organizationDetails, type OrganizationDetails } from "./details.js"

async function resolved(config: AuthConfigInput): Promise<ResolvedConfig> {
  return resolveConfig((typeof config === "function" ? await config() : config) as AuthConfig)
}

/** True when the signed-in user's role in the active organization grants `permission` (each of a list). */
export function hasPermission(req: GatehouseRequest, permission: string | readonly string[]): boolean {
  return holds(req.auth?.organization, permission)
}

/** Runs `POST organizations/<action>` as the signed-in user; its JSON answer. Cookies it sets (switching) go on `res`. */
export async function organizationAction(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput, action: string, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const resolvedConfig = await resolveFor(req, config)
  const request = toInternalRequest(req, resolvedConfig, { action: "organizations", providerId: action, method: "POST", basePath: resolvedConfig.basePath, body: fields, serverAction: true })
  const response = await dispatch(request, resolvedConfig, { throwErrors: true })
  appendSetCookie(res, setCookieLines(response.cookies))
  const body = response.body
  return (typeof body === "string" ? JSON.parse(body) : body) as Record<string, unknown>
}

/** Makes `organizationId` the signed-in user's active organization (a member only). */
export async function switchOrganization(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput, organizationId: string): Promise<ActiveOrganization> {
  return (await organizationAction(req, res, config, "switch", { organizationId })).active as ActiveOrganization
}

export async function createOrganization(config: AuthConfigInput, input: { ownerId: string; name: string; slug?: string; logo?: string | null; metadata?: Record<string, unknown> | null }): Promise<AdapterOrganization> {
  return manage.createOrganization(await resolved(config), input.ownerId, input, null)
}

export async function updateOrganization(config: AuthConfigInput, organizationId: string, changes: { name?: string; slug?: string; logo?: string | null; metadata?: Record<string, unknown> | null }): Promise<AdapterOrganization> {
  return manage.updateOrganization(await resolved(config), organizationId, changes, null)
}

export async function deleteOrganization(config: AuthConfigInput, organizationId: string): Promise<void> {
  await manage.deleteOrganization(await resolved(config), organizationId, null)
}

export async function addMember(config: AuthConfigInput, input: { organizationId: string; userId: string; role?: string }): Promise<AdapterMember> {
  const resolvedConfig = await resolved(config)
  return members.addMember(resolvedConfig, input.organizationId, input.userId, input.role ?? settingsOf(resolvedConfig).defaultRole, null)
}

export async function setMemberRole(config: AuthConfigInput, input: { organizationId: string; userId: string; role: string }): Promise<AdapterMember> {
  return members.changeRole(await resolved(config), input.organizationId, input.userId, input.role, null)
}

export async function removeMember(config: AuthConfigInput, input: { organizationId: string; userId: string }): Promise<void> {
  await members.removeMember(await resolved(config), input.organizationId, input.userId, null)
}

export async function transferOwnership(config: AuthConfigInput, input: { organizationId: string; userId: string }): Promise<void> {
  await members.transferOwnership(await resolved(config), input.organizationId, input.userId, null)
}

/**
 * Invites `email` (mailed as the built-in actions do, in `locale`'s language). `baseUrl`: the
 * router's absolute URL (`https://example.com/auth`), for the link. The answer has the link
 * (`url`) for apps that deliver it themselves.
 */
export async function inviteMember(config: AuthConfigInput, input: { organizationId: string; email: string; role?: string; baseUrl: string; locale?: string }): Promise<SentInvitation> {
  const resolvedConfig = await resolved(config)
  const i18n = resolvedConfig.i18n ?? defaultI18n()
  const locale = (input.locale && i18n.locales.get(input.locale)) || i18n.fixed || i18n.fallback
  return invite(resolvedConfig, { baseUrl: input.baseUrl.replace(/\/+$/, ""), locale }, input.organizationId, { email: input.email, role: input.role }, null)
}

/** The user's organizations with their role and permissions, oldest membership first. */
export async function listOrganizations(config: AuthConfigInput, userId: string): Promise<Array<ActiveOrganization & { name: string }>> {
  const resolvedConfig = await resolved(config)
  const memberships = await membershipCache(resolvedConfig).load(resolvedConfig, settingsOf(resolvedConfig), userId)
  return memberships.list.map((membership) => ({ ...membership.fact, name: membership.name }))
}

/** One organization as its member `viewerId` sees it (members, invitations, roles). */
export async function getOrganization(config: AuthConfigInput, organizationId: string, viewerId: string): Promise<OrganizationDetails> {
  const resolvedConfig = await resolved(config)
  storageOf(resolvedConfig)
  return organizationDetails(resolvedConfig, organizationId, viewerId)
}
