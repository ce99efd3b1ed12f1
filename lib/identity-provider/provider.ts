/**
 * The `oidc-provider` instance of a configuration: imported and built on the first request that
 * needs it (never at start-up), once per issuer (`<origin><base>/<path>`; an app reached under
 * several origins without AUTH_URL has one per origin, at most MAX_ISSUERS). Everything it stores
 * goes through the adapter (storage.ts); it signs with keys.ts's keys; it finds users and their
 * claims through account.ts; its pages are Gatehouse's (sources.ts); sign-in and consent happen at
 * `<base>/oidc-interaction/<uid>` (actions/interaction.ts).
 */
import { hkdfSync } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type * as OidcModule from "oidc-provider"
import type { AdapterConstructor, ClientMetadata, Configuration, JWK as ProviderJwk } from "oidc-provider"
import type { RequestContext } from "../core/context.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { IdentityProviderUnavailable } from "./errors.js"
import type { ResolvedOidcProvider } from "./settings.js"
import { signingKeys, publicKeys } from "./keys.js"
import { storageFor } from "./storage.js"
import { claimsByScope, findAccount } from "./account.js"
import { deviceDoneSource, deviceInputSource, deviceConfirmSource, logoutSource, loggedOutSource, renderProviderError } from "./sources.js"
import { gatehouseUserOf, endAppSession } from "./request-state.js"
import { checkClientMetadata, resourceServer } from "./resources.js"

/** What Gatehouse uses of an `oidc-provider` instance (its own types stay out of the published declarations). */
export interface ProviderInstance {
  proxy: boolean
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
  interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>
  Grant: GrantClass
  Client: { find(id: string): Promise<{ clientId: string; clientName?: string; clientUri?: string; metadata(): Record<string, unknown> } | undefined> }
  on(event: string, listener: (...args: never[]) => void): void
}

export interface InteractionDetails {
  uid: string
  iat: number
  returnTo: string
  params: Record<string, unknown> & { client_id?: string; scope?: string }
  prompt: { name: string; reasons: string[]; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> } & Record<string, unknown> }
  session?: { accountId?: string; uid?: string }
  grantId?: string
  lastSubmission?: Record<string, unknown>
}

export interface GrantInstance {
  jti?: string
  accountId?: string
  clientId?: string
  addOIDCScope(scope: string): void
  addOIDCClaims(claims: string[]): void
  addResourceScope(resource: string, scope: string): void
  getOIDCScope(): string
  save(ttl?: number): Promise<string>
}

export interface GrantClass {
  new (properties: { accountId: string; clientId: string }): GrantInstance
  find(id: string): Promise<GrantInstance | undefined>
}

export interface BuiltProvider {
  readonly provider: ProviderInstance
  readonly issuer: string
  /** The provider's Node handler (Koa's). */
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
  /** The public signing keys (JWKS), for checking the access tokens it issues. */
  readonly publicKeys: readonly Record<string, unknown>[]
}

const MAX_ISSUERS = 8
const built = new WeakMap<ResolvedOidcProvider, Map<string, Promise<BuiltProvider>>>()

type OidcProviderModule = typeof OidcModule

let module: Promise<OidcProviderModule> | undefined

function load(): Promise<OidcProviderModule> {
  module ??= import("oidc-provider").catch((error: unknown) => {
    module = undefined
    throw new IdentityProviderUnavailable("oidcProvider needs the oidc-provider package: npm install oidc-provider", { cause: { err: error } })
  })
  return module
}

/** Cookie keys for `oidc-provider`'s signed cookies, derived from each of the app's secrets (so a rotation keeps them). */
function cookieKeys(config: ResolvedConfig): string[] {
  return config.secrets.map((secret) => Buffer.from(hkdfSync("sha256", secret, "", "gatehouse.identity-provider.cookies", 32)).toString("base64url"))
}

/** The issuer for this request: `<origin><base>/<path>`. */
export function issuerOf(ctx: RequestContext, options: ResolvedOidcProvider): string {
  return `${ctx.baseUrl}/${options.path}`
}

/** The provider of this request's configuration and issuer, built on first use. */
export function providerFor(ctx: RequestContext): Promise<BuiltProvider> {
  const options = ctx.config.oidcProvider
  if (!options) return Promise.reject(new IdentityProviderUnavailable("The oidcProvider option is off"))
  let byIssuer = built.get(options)
  if (!byIssuer) {
    byIssuer = new Map()
    built.set(options, byIssuer)
  }
  const issuer = issuerOf(ctx, options)
  let found = byIssuer.get(issuer)
  if (!found) {
    if (byIssuer.size >= MAX_ISSUERS) byIssuer.delete(byIssuer.keys().next().value as string)
    found = build(ctx, options, issuer)
    found.catch(() => byIssuer.delete(issuer))
    byIssuer.set(issuer, found)
  }
  return found
}

async function build(ctx: RequestContext, options: ResolvedOidcProvider, issuer: string): Promise<BuiltProvider> {
  const { config } = ctx
  const { Provider, errors, interactionPolicy } = await load()
  const keys = await signingKeys(config, options)
  const base = ctx.baseUrl
  const policy = interactionPolicy.base()
  // The provider's own session follows the app's: a browser signed out of the app (or signed in
  // as someone else) is asked to sign in again, whatever the provider's cookie says.
  policy.get("login")!.checks.add(
    new interactionPolicy.Check("app_session", "The app's session ended or belongs to someone else", (koa) => {
      const accountId = koa.oidc.session!.accountId
      if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT
      return gatehouseUserOf(koa.req) === accountId ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT
    }),
  )
  const configuration: Configuration = {
    adapter: storageFor(config, errors) as unknown as AdapterConstructor,
    clients: options.clients.map((client) => ({ ...client }) as ClientMetadata),
    jwks: { keys: keys as ProviderJwk[] },
    cookies: {
      keys: cookieKeys(config),
      names: { session: "gatehouse.op.session", interaction: "gatehouse.op.interaction", resume: "gatehouse.op.resume" },
      long: { signed: true, httpOnly: true, sameSite: "lax" },
      short: { signed: true, httpOnly: true, sameSite: "lax" },
    },
    findAccount: (koa, sub, token) => findAccount(config, options, sub, (token as { clientId?: string } | undefined)?.clientId ?? koa.oidc?.client?.clientId) as never,
    claims: claimsByScope(options, config),
    scopes: [...options.scopes],
    responseTypes: ["code"],
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    conformIdTokenClaims: false,
    rotateRefreshToken: true,
    issueRefreshToken: async (_koa, client, code) => client.grantTypeAllowed("refresh_token") && (code.scopes.has("offline_access") || client.clientAuthMethod === "none"),
    clientDefaults: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "RS256" },
    ttl: {
      AccessToken: (_koa, token) => (token as { resourceServer?: { accessTokenTTL?: number } }).resourceServer?.accessTokenTTL ?? options.ttl.accessToken,
      ClientCredentials: (_koa, token) => (token as { resourceServer?: { accessTokenTTL?: number } }).resourceServer?.accessTokenTTL ?? options.ttl.accessToken,
      AuthorizationCode: options.ttl.authorizationCode,
      DeviceCode: options.ttl.deviceCode,
      Grant: options.ttl.grant,
      IdToken: options.ttl.idToken,
      Interaction: options.ttl.interaction,
      RefreshToken: options.ttl.refreshToken,
      Session: options.ttl.session,
    },
    interactions: { url: (_koa, interaction) => `${base}/oidc-interaction/${interaction.uid}`, policy },
    loadExistingGrant: async (koa) => {
      const grantId = koa.oidc.result?.consent?.grantId ?? koa.oidc.session!.grantIdFor(koa.oidc.client!.clientId)
      if (grantId) {
        const grant = await koa.oidc.provider.Grant.find(grantId)
        if (grant) return grant
      }
      // Consent is remembered per user and client, beyond the provider's session: the latest grant.
      const accountId = koa.oidc.account?.accountId ?? koa.oidc.session!.accountId
      if (!accountId) return undefined
      const records = await config.adapter!.listOidcRecords!("Grant", { accountId, clientId: koa.oidc.client!.clientId })
      const latest = records[records.length - 1]
      return latest ? koa.oidc.provider.Grant.find(latest.id) : undefined
    },
    renderError: (koa, out, error) => renderProviderError(koa, out, error),
    // `resources`: the resource indicators a client may get tokens for (resources.ts). Its check
    // also limits what a client registering itself may have (registration.ts).
    extraClientMetadata: { properties: ["resources"], validator: (koa, key, value, metadata) => checkClientMetadata(options, errors, koa, key, value, metadata) },
    features: {
      devInteractions: { enabled: false },
      // Bearer tokens only: requireAuth and verifyAccessToken do not check DPoP proofs, so none is issued bound to one.
      dPoP: { enabled: false },
      deviceFlow: { enabled: options.deviceFlow, userCodeInputSource: deviceInputSource, userCodeConfirmSource: deviceConfirmSource, successSource: deviceDoneSource },
      clientCredentials: { enabled: options.clientCredentials as never },
      // A client introspects its own tokens only (resource servers check the JWTs locally).
      introspection: { enabled: true, allowedPolicy: async (_koa, client, token) => (token as { clientId?: string }).clientId === client.clientId },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource: loggedOutSource },
      backchannelLogout: { enabled: true },
      registration: options.registration.enabled
        ? {
            enabled: true,
            initialAccessToken: options.registration.initialAccessToken ?? false,
            issueRegistrationAccessToken: true,
          }
        : { enabled: false },
      registrationManagement: { enabled: options.registration.enabled },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_koa, _client, oneOf) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_koa, indicator, client) => resourceServer(options, indicator, client as never, errors) as never,
      },
    },
  }
  const provider = new Provider(issuer, configuration) as unknown as ProviderInstance & { proxy: boolean }
  // Forwarded headers are trusted exactly when Gatehouse trusts them for this app.
  provider.proxy = ctx.request.trustForwarded?.() ?? false
  provider.on("server_error", (_koa: unknown, error: Error) => config.logger.error(error))
  if (options.logoutEndsSession) provider.on("end_session.success", (koa: { req: IncomingMessage; res: ServerResponse }) => endAppSession(koa))
  const handler = provider.callback()
  return { provider, issuer, handle: handler, publicKeys: publicKeys(keys) as unknown as Record<string, unknown>[] }
}
