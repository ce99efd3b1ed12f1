/**
 * The identity provider for the app's own code (issue #32), exported by `gatehouse`: its clients
 * (`listOidcClients`, `createOidcClient`, `rotateOidcClientSecret`, `deleteOidcClient`), a user's
 * connected apps (`listConnectedApps`, `revokeConnectedApp`), and `verifyAccessToken(config,
 * token, { audience, scope })` for code that reads a bearer token itself. These resolve the app's
 * configuration, so nothing inside Gatehouse imports this file.
 */
import type { AuthConfig, AuthConfigInput } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { resolveConfig } from "../core/config/resolve.js"
import * as clients from "./clients.js"
import * as grants from "./grants.js"
import { accepts, checkAccessToken, type CheckedAccessToken } from "./access-token.js"
import { AccessTokenInvalid } from "./errors.js"
import { InsufficientScope } from "../api-keys/errors.js"

async function resolved(config: AuthConfigInput): Promise<ResolvedConfig> {
  return resolveConfig((typeof config === "function" ? await config() : config) as AuthConfig)
}

export async function listOidcClients(config: AuthConfigInput): Promise<clients.OidcClientView[]> {
  return clients.listOidcClients(await resolved(config))
}

export async function createOidcClient(config: AuthConfigInput, input: clients.CreateOidcClientInput): Promise<{ client: clients.OidcClientView; clientSecret: string | null }> {
  return clients.createOidcClient(await resolved(config), input)
}

export async function rotateOidcClientSecret(config: AuthConfigInput, clientId: string): Promise<{ clientSecret: string }> {
  return clients.rotateOidcClientSecret(await resolved(config), clientId)
}

export async function deleteOidcClient(config: AuthConfigInput, clientId: string): Promise<void> {
  return clients.deleteOidcClient(await resolved(config), clientId)
}

export async function listConnectedApps(config: AuthConfigInput, userId: string): Promise<grants.ConnectedApp[]> {
  return grants.listConnectedApps(await resolved(config), userId)
}

export async function revokeConnectedApp(config: AuthConfigInput, userId: string, clientId: string): Promise<boolean> {
  return grants.revokeConnectedApp(await resolved(config), userId, clientId)
}

/**
 * Checks an access token the provider issued (a JWT for one of `oidcProvider.resources`): its
 * signature, issuer, expiry, and the audience and scopes asked. Throws `AccessTokenInvalid` or
 * `InsufficientScope`.
 */
export async function verifyAccessToken(config: AuthConfigInput, token: string, options: { audience?: string | string[]; scope?: string | string[] } = {}): Promise<CheckedAccessToken> {
  const checked = await checkAccessToken(await resolved(config), token)
  const audiences = options.audience === undefined ? [] : [options.audience].flat()
  const scopes = options.scope === undefined ? [] : [options.scope].flat()
  const verdict = accepts(checked, audiences, scopes)
  if (verdict === "audience") throw new AccessTokenInvalid("The access token is for another audience")
  if (verdict === "scope") throw new InsufficientScope(`The access token lacks the scope ${scopes.join(" and ")}`)
  return checked
}
