/**
 * SCIM provisioning for the app's server code (issue #29), exported by `gatehouse`: making and
 * revoking an organization's SCIM tokens and choosing its directory groups' roles acting for no
 * user (seeding, a back office, an admin tool of the app's own). They skip the permission and
 * recent sign-in checks and keep every other rule (a token or group of another organization is
 * refused, a group never makes owners). Token changes are audited (without a `userId`).
 * These resolve the app's configuration, so nothing inside Gatehouse imports this file.
 */
import type { AuthConfig, AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { resolveConfig } from "../core/config/resolve.js"
import * as rules from "./manage.js"
import type { ScimGroupView, ScimTokenView } from "./manage.js"

export type { ScimGroupView, ScimTokenView } from "./manage.js"

async function resolved(config: AuthConfigInput): Promise<ResolvedConfig> {
  return resolveConfig((typeof config === "function" ? await config() : config) as AuthConfig)
}

export interface CreatedScimToken {
  /** The token itself: shown once, never stored (only its SHA-256 is). Hand it to the directory now. */
  token: string
  id: string
  name: string
  createdAt: Date
}

/** Makes a SCIM token for `organizationId`, called `name` ("Okta"). */
export async function createScimToken(config: AuthConfigInput, input: { organizationId: string; name: string }): Promise<CreatedScimToken> {
  const { token, record } = await rules.createToken(await resolved(config), input.organizationId, input.name, null)
  return { token, id: record.id, name: record.name, createdAt: record.createdAt }
}

/** Revokes token `tokenId` of `organizationId` (another organization's is InvalidRequest): the directory holding it is refused from then on. */
export async function revokeScimToken(config: AuthConfigInput, input: { organizationId: string; tokenId: string }): Promise<ScimTokenView> {
  return rules.revokeToken(await resolved(config), input.organizationId, input.tokenId, null)
}

/** The organization's SCIM tokens, oldest first: names and dates, never a token or its hash. */
export async function listScimTokens(config: AuthConfigInput, input: { organizationId: string }): Promise<ScimTokenView[]> {
  return rules.listTokens(await resolved(config), input.organizationId, null)
}

/** Sets the role the members of directory group `groupId` get (null or "": none; never `owner`), and recomputes its members' roles. */
export async function setScimGroupRole(config: AuthConfigInput, input: { organizationId: string; groupId: string; role: string | null }): Promise<ScimGroupView> {
  return rules.setGroupRole(await resolved(config), input.organizationId, input.groupId, input.role, null)
}

/** The organization's directory groups, oldest first, with the role each maps to. */
export async function listScimGroups(config: AuthConfigInput, input: { organizationId: string }): Promise<ScimGroupView[]> {
  return rules.listGroups(await resolved(config), input.organizationId, null)
}
