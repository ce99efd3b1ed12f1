/**
 * API keys for the app's own code (issue #31), exported by `gatehouse`:
 * - `apiKeyAction(req, res, config, action, fields)`: `POST api-keys/<create|revoke>` as the
 *   signed-in user, with the same rules (a recent sign-in to create; refusals thrown as named errors);
 * - server code, acting for no user (provisioning a partner, a CLI login flow): `createApiKey`
 *   (a user's key with `userId`, an organization's with `organizationId`), `listApiKeys`,
 *   `revokeApiKey`, and `verifyApiKey(config, key)` for code that reads keys itself.
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
import type { ApiKeyFact } from "./caller.js"
import * as manage from "./manage.js"
import { verifyApiKey as verify } from "./verify.js"
import { keySession } from "./guard.js"

async function resolved(config: AuthConfigInput): Promise<ResolvedConfig> {
  return resolveConfig((typeof config === "function" ? await config() : config) as AuthConfig)
}

/** Runs `POST api-keys/<action>` as the signed-in user; its JSON answer (with `key`, once, for create). */
export async function apiKeyAction(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput, action: "create" | "revoke", fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const resolvedConfig = await resolveFor(req, config)
  const request = toInternalRequest(req, resolvedConfig, { action: "api-keys", providerId: action, method: "POST", basePath: resolvedConfig.basePath, body: fields, serverAction: true })
  const response = await dispatch(request, resolvedConfig, { throwErrors: true })
  appendSetCookie(res, setCookieLines(response.cookies))
  const body = response.body
  return (typeof body === "string" ? JSON.parse(body) : body) as Record<string, unknown>
}

export interface CreateApiKeyInput {
  /** A user's key (give this or `organizationId`). */
  userId?: string
  organizationId?: string
  name: string
  scopes?: string[]
  /** Seconds from now (or `expires`). */
  expiresIn?: number
  expires?: Date | string
}

export async function createApiKey(config: AuthConfigInput, input: CreateApiKeyInput): Promise<manage.CreatedApiKey> {
  const resolvedConfig = await resolved(config)
  return manage.createApiKey(resolvedConfig, { name: input.name, scopes: input.scopes, expiresIn: input.expiresIn, expires: input.expires, organizationId: input.organizationId }, null, input.userId)
}

export async function listApiKeys(config: AuthConfigInput, owner: { userId: string } | { organizationId: string }): Promise<manage.ApiKeyView[]> {
  const resolvedConfig = await resolved(config)
  return "organizationId" in owner ? manage.listApiKeys(resolvedConfig, owner, null) : manage.listApiKeys(resolvedConfig, {}, null, owner.userId)
}

export async function revokeApiKey(config: AuthConfigInput, keyId: string): Promise<manage.ApiKeyView> {
  return manage.revokeApiKey(await resolved(config), keyId, null)
}

/** The key's owner and scopes, as `req.auth` would show them; throws `ApiKeyInvalid`, `ApiKeyExpired` or `UserBanned`. */
export async function verifyApiKey(config: AuthConfigInput, key: string): Promise<{ apiKey: ApiKeyFact; user: { id: string; email: string; name: string | null } | null; organization: { id: string; slug: string; name: string } | null }> {
  const resolvedConfig = await resolved(config)
  const settings = manage.settingsOf(resolvedConfig)
  const caller = await verify(resolvedConfig, settings, key)
  const session = keySession(caller)
  return { apiKey: session.apiKey as ApiKeyFact, user: caller.user ? { id: caller.user.id, email: caller.user.email, name: caller.user.name ?? null } : null, organization: caller.organization }
}
