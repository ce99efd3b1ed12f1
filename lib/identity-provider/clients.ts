/**
 * The provider's stored clients (issue #32): made by the app's code or an admin (`createOidcClient`),
 * registered by themselves (dynamic registration), or declared in `oidcProvider.clients` (read
 * only). A stored client's secret is sealed with the app's secret before it reaches the adapter
 * (storage.ts) and shown once, when made or rotated. Deleting a client ends every grant and token
 * it holds.
 */
import { randomBytes } from "node:crypto"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { InvalidOption } from "../errors.js"
import { fireEvent } from "../core/events.js"
import { IdentityProviderUnavailable, OidcClientNotFound } from "./errors.js"
import type { OidcClientMetadata, ResolvedOidcProvider } from "./settings.js"
import { fromRecord, toRecord } from "./storage.js"

export interface OidcClientView {
  clientId: string
  name: string | null
  /** `none`: a public client (no secret, PKCE); else how it authenticates. */
  authMethod: string
  redirectUris: string[]
  grantTypes: string[]
  /** Declared in the configuration (cannot be changed here), registered by itself, or made by the app. */
  origin: "config" | "registered" | "created"
  createdAt: Date | null
}

export interface CreateOidcClientInput {
  name: string
  redirectUris?: string[]
  postLogoutRedirectUris?: string[]
  /** Default `["authorization_code", "refresh_token"]`. */
  grantTypes?: string[]
  /** A public client (mobile, SPA, CLI): no secret, PKCE. Default false. */
  public?: boolean
  /** Space-separated scopes it may ask for (default: every scope). */
  scope?: string
  /** Resource indicators it may get tokens for (default: every configured resource). */
  resources?: string[]
  backchannelLogoutUri?: string
  uri?: string
}

const GRANTS = new Set(["authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:device_code"])

function optionsOf(config: ResolvedConfig): ResolvedOidcProvider {
  if (!config.oidcProvider) throw new IdentityProviderUnavailable("The oidcProvider option is off")
  return config.oidcProvider
}

function viewOf(metadata: Record<string, unknown>, origin: OidcClientView["origin"]): OidcClientView {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : [])
  const issued = metadata.client_id_issued_at
  return {
    clientId: String(metadata.client_id),
    name: typeof metadata.client_name === "string" ? metadata.client_name : null,
    authMethod: typeof metadata.token_endpoint_auth_method === "string" ? metadata.token_endpoint_auth_method : "client_secret_basic",
    redirectUris: list(metadata.redirect_uris),
    grantTypes: list(metadata.grant_types).length ? list(metadata.grant_types) : ["authorization_code", "refresh_token"],
    origin,
    createdAt: typeof issued === "number" ? new Date(issued * 1000) : null,
  }
}

/** Every client: the configured ones first, then the stored ones (oldest first). */
export async function listOidcClients(config: ResolvedConfig): Promise<OidcClientView[]> {
  const options = optionsOf(config)
  const stored = await config.adapter!.listOidcRecords!("Client", {})
  return [
    ...options.clients.map((client) => viewOf(client, "config")),
    ...stored.map((record) => {
      const payload = fromRecord(record, config) ?? {}
      return viewOf(payload, payload.gatehouse_created === true ? "created" : "registered")
    }),
  ]
}

function urls(value: unknown, name: string): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || value.some((each) => typeof each !== "string" || !URL.canParse(each))) throw new InvalidOption(`${name} must be a list of absolute URLs`)
  return value as string[]
}

/** Makes a client; its id and (for a confidential client) its secret, shown this once. */
export async function createOidcClient(config: ResolvedConfig, input: CreateOidcClientInput, actorId: string | null = null): Promise<{ client: OidcClientView; clientSecret: string | null }> {
  const options = optionsOf(config)
  if (!input || typeof input.name !== "string" || !input.name.trim() || input.name.length > 200) throw new InvalidOption("createOidcClient: name must be 1 to 200 characters")
  const grantTypes = input.grantTypes ?? ["authorization_code", "refresh_token"]
  if (!Array.isArray(grantTypes) || grantTypes.some((grant) => !GRANTS.has(grant))) throw new InvalidOption(`createOidcClient: grantTypes must be among ${[...GRANTS].join(", ")}`)
  const redirectUris = urls(input.redirectUris, "createOidcClient: redirectUris")
  if (grantTypes.includes("authorization_code") && redirectUris.length === 0) throw new InvalidOption("createOidcClient: the authorization_code grant needs redirectUris")
  if (input.public && grantTypes.includes("client_credentials")) throw new InvalidOption("createOidcClient: a public client cannot use client_credentials")
  const resources = input.resources ?? undefined
  if (resources && (!Array.isArray(resources) || resources.some((indicator) => !options.resources.has(indicator)))) throw new InvalidOption("createOidcClient: resources must be resource indicators of oidcProvider.resources")
  if (input.scope !== undefined && (typeof input.scope !== "string" || input.scope.split(" ").some((scope) => scope && !options.scopes.includes(scope)))) throw new InvalidOption("createOidcClient: scope must list scopes of the provider")
  const clientId = `gc_${randomBytes(16).toString("base64url")}`
  const clientSecret = input.public ? null : randomBytes(32).toString("base64url")
  const metadata: OidcClientMetadata & Record<string, unknown> = {
    client_id: clientId,
    ...(clientSecret && { client_secret: clientSecret }),
    client_id_issued_at: Math.floor(Date.now() / 1000),
    client_name: input.name.trim(),
    redirect_uris: redirectUris,
    post_logout_redirect_uris: urls(input.postLogoutRedirectUris, "createOidcClient: postLogoutRedirectUris"),
    grant_types: grantTypes,
    response_types: grantTypes.includes("authorization_code") ? ["code"] : [],
    token_endpoint_auth_method: input.public ? "none" : "client_secret_basic",
    ...(input.scope && { scope: input.scope }),
    ...(resources && { resources }),
    ...(input.backchannelLogoutUri && { backchannel_logout_uri: input.backchannelLogoutUri }),
    ...(input.uri && { client_uri: input.uri }),
    gatehouse_created: true,
  }
  await config.adapter!.putOidcRecord!(toRecord("Client", clientId, metadata, undefined, config))
  await fireEvent(config, "oidcProvider", { type: "oidc.client.created", clientId, actorId })
  return { client: viewOf(metadata, "created"), clientSecret }
}

async function storedClient(config: ResolvedConfig, clientId: string): Promise<Record<string, unknown>> {
  const options = optionsOf(config)
  if (typeof clientId !== "string" || !clientId || options.clients.some((client) => client.client_id === clientId)) {
    throw new OidcClientNotFound("No stored client has this id (clients declared in oidcProvider.clients are changed in the configuration)")
  }
  const payload = fromRecord(await config.adapter!.getOidcRecord!("Client", clientId), config)
  if (!payload) throw new OidcClientNotFound("No stored client has this id")
  return payload
}

/** A new secret for a stored confidential client (the old one stops working at once); shown this once. */
export async function rotateOidcClientSecret(config: ResolvedConfig, clientId: string, actorId: string | null = null): Promise<{ clientSecret: string }> {
  const payload = await storedClient(config, clientId)
  if (payload.token_endpoint_auth_method === "none") throw new InvalidOption("rotateOidcClientSecret: a public client has no secret")
  const clientSecret = randomBytes(32).toString("base64url")
  await config.adapter!.putOidcRecord!(toRecord("Client", clientId, { ...payload, client_secret: clientSecret }, undefined, config))
  await fireEvent(config, "oidcProvider", { type: "oidc.client.secret_rotated", clientId, actorId })
  return { clientSecret }
}

/** Deletes a stored client with every grant, code and token it holds. */
export async function deleteOidcClient(config: ResolvedConfig, clientId: string, actorId: string | null = null): Promise<void> {
  await storedClient(config, clientId)
  const adapter = config.adapter!
  for (;;) {
    const grants = await adapter.listOidcRecords!("Grant", { clientId })
    if (grants.length === 0) break
    for (const grant of grants) {
      await adapter.deleteOidcGrant!(grant.id)
      await adapter.deleteOidcRecord!("Grant", grant.id)
    }
  }
  await adapter.deleteOidcRecord!("Client", clientId)
  await fireEvent(config, "oidcProvider", { type: "oidc.client.deleted", clientId, actorId })
}
