/**
 * The `oidcProvider` option (issue #32) as the app writes it and as it is resolved: the types
 * only (options.ts checks and resolves). Client metadata is written as the OAuth and OpenID
 * specifications name it (`client_id`, `redirect_uris`, snake case), as `oidc-provider` takes it.
 */
import type { AdapterUser } from "../adapters.js"
import type { Awaitable } from "../base-types.js"

/** A client of the identity provider: OAuth 2.0 / OpenID Connect Dynamic Client Registration metadata. */
export interface OidcClientMetadata {
  client_id: string
  /** Absent for a public client (`token_endpoint_auth_method: "none"`, PKCE required). */
  client_secret?: string
  redirect_uris?: string[]
  post_logout_redirect_uris?: string[]
  /** Default `["authorization_code", "refresh_token"]`. */
  grant_types?: string[]
  /** Default `["code"]`. */
  response_types?: string[]
  /** Default `client_secret_basic`; `none` for public clients (mobile, SPA, CLI). */
  token_endpoint_auth_method?: string
  client_name?: string
  logo_uri?: string
  client_uri?: string
  /** OpenID Connect Back-Channel Logout: where a logout token is posted when the user signs out. */
  backchannel_logout_uri?: string
  /** The scopes the client may ask for (space-separated); default: every scope the provider has. */
  scope?: string
  [name: string]: unknown
}

/** An API of the app that takes the provider's access tokens (RFC 8707 resource indicator). */
export interface OidcResourceOptions {
  /** The scopes of this API (`["mcp:tools", "notes:read"]`). */
  scopes: string[]
  /** The tokens' `aud` (default: the resource indicator itself). */
  audience?: string
  /** Seconds an access token for it lasts (default 3600). */
  accessTokenTtl?: number
}

export interface OidcClaimsParams {
  user: AdapterUser
  /** The scopes granted for this token. */
  scopes: string[]
  clientId: string
  /** Where the claims go. */
  use: "id_token" | "userinfo"
}

export interface OidcProviderOptions {
  /** The path under the router where the provider answers (default `oidc`): the issuer is `<origin><base>/oidc`. */
  path?: string
  /** Clients declared here (they cannot be changed at run time); others are stored through the adapter. */
  clients?: OidcClientMetadata[]
  /** Scopes of the app beyond `openid`, `profile`, `email`, `offline_access` (and `organization` with organizations on). */
  scopes?: string[]
  /** The app's APIs that take access tokens, by resource indicator (an absolute URL): tokens for them are JWTs. */
  resources?: Record<string, OidcResourceOptions>
  /**
   * Dynamic client registration (RFC 7591), off by default. `true` lets anyone register a public
   * or confidential client (what MCP clients expect); `{ initialAccessToken }` asks for that bearer
   * token. Registered clients get at most `scopes` (default: openid profile email offline_access
   * and each resource's scopes) and no client credentials grant.
   */
  registration?: boolean | { initialAccessToken?: string; scopes?: string[] }
  /** The device authorization grant (RFC 8628) for CLIs and TVs (default on). */
  deviceFlow?: boolean
  /** The client credentials grant for machines (default on). */
  clientCredentials?: boolean
  /**
   * Private signing keys as JWKs (RSA for RS256 first; EC P-256 for ES256). Default: generated
   * once and kept, sealed with the app's secret, through the adapter.
   */
  keys?: JsonWebKey[]
  /** Lifetimes in seconds. */
  ttl?: { accessToken?: number; refreshToken?: number; idToken?: number; authorizationCode?: number; deviceCode?: number; grant?: number; session?: number; interaction?: number }
  /**
   * Claims of your own for ID tokens and userinfo, beside `sub`, `email`, `name`, `picture`. Each
   * is released only with the scope `scopeClaims` names it under.
   */
  claims?: (params: OidcClaimsParams) => Awaitable<Record<string, unknown>>
  /** Which of your claims each scope releases: `{ openid: ["tenant"], billing: ["plan", "seats"] }` (new scopes join the provider's). */
  scopeClaims?: Record<string, string[]>
  /** First-party clients that skip the consent page (their consent is the app's own). */
  skipConsent?: string[]
  /** RP-initiated logout at the provider signs the user out of the app too (default true). */
  logoutEndsSession?: boolean
}

export interface ResolvedOidcResource {
  readonly indicator: string
  readonly scopes: readonly string[]
  readonly audience: string
  readonly accessTokenTtl: number
}

export interface ResolvedOidcProvider {
  readonly path: string
  readonly clients: readonly Readonly<OidcClientMetadata>[]
  /** Every scope the provider has. */
  readonly scopes: readonly string[]
  readonly resources: ReadonlyMap<string, ResolvedOidcResource>
  readonly registration: { readonly enabled: boolean; readonly initialAccessToken?: string; readonly scopes: readonly string[] }
  readonly deviceFlow: boolean
  readonly clientCredentials: boolean
  readonly keys?: readonly JsonWebKey[]
  readonly ttl: Readonly<Required<NonNullable<OidcProviderOptions["ttl"]>>>
  readonly claims?: OidcProviderOptions["claims"]
  readonly scopeClaims: Readonly<Record<string, readonly string[]>>
  readonly skipConsent: ReadonlySet<string>
  readonly logoutEndsSession: boolean
}
