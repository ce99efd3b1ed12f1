/**
 * Provider shapes. A provider has an `id` (unique, used in URLs), a `name` (shown on buttons) and
 * a `type`. Factories in this folder return these records; a custom provider is a plain object.
 */
import type { customFetch } from "../core/symbols.js"
import type { OutboundOptions } from "../outbound/options.js"
import type { Adapter } from "../adapters.js"
import type { Awaitable, Profile, ProviderType, Theme, TokenSet, User } from "../base-types.js"

export type { ProviderType }

export const PROVIDER_TYPES: readonly ProviderType[] = ["oauth", "oidc", "email", "credentials", "webauthn"]

export interface CommonProviderOptions {
  /** Unique among the configured providers: letters, digits, `-` and `_`. */
  id: string
  name: string
  type: ProviderType
}

/** One field of the built-in credentials form (rendered as an `<input>`). */
export interface CredentialInput {
  label?: string
  /** The input type: `text` (default), `password`, `email`, `tel`, `number`... */
  type?: string
  placeholder?: string
  autocomplete?: string
  required?: boolean
}

export interface CredentialsConfig extends CommonProviderOptions {
  type: "credentials"
  /** The fields of the built-in form, in order. */
  credentials: Record<string, CredentialInput>
  /**
   * Returns the user, or null to refuse. Throw `CredentialsSignin` (optionally with a `code`) to
   * refuse with a specific code; anything else thrown is logged and shown as a generic error.
   * `credentials` holds only string values. `request` is a web Request, built only when this
   * function declares the parameter.
   */
  authorize: (credentials: Partial<Record<string, string>>, request: Request) => Awaitable<User | null>
}

/** Button styling for providers shown on the sign-in page. */
export interface ProviderStyle {
  /** An http(s) or site-relative image URL. */
  logo?: string
  /** Button background colour (CSS). */
  bg?: string
  /** Button text colour (CSS). */
  text?: string
}

/**
 * A parameter value: a string, or a function of the final provider record (e.g. a parameter that
 * repeats the client id, which may come from the environment).
 */
export type ParamValue = string | ((provider: OAuthProviderConfig) => string | undefined)

/** An endpoint: its URL, or the URL with fixed parameters (a URL's own query counts as params too). */
export type EndpointOption = string | { url?: string; params?: Record<string, ParamValue> }

/** What a custom userinfo request receives. */
export interface UserinfoContext {
  tokens: TokenSet
  provider: OAuthProviderConfig
  /** The fetch to use (the provider's customFetch, else the global one). */
  fetch: typeof fetch
}

export type OAuthCheck = "pkce" | "state" | "nonce" | "none"

/** What `profile()` returns: the user, whose `id` (the provider's account id) may be a number. */
export type ProfileUser = Omit<User, "id"> & { id?: string | number }

export interface OAuthProviderConfig<P extends Record<string, unknown> = Profile> extends CommonProviderOptions {
  type: "oauth" | "oidc"
  /** The issuer: its discovery document gives the endpoints (required for `oidc` without `wellKnown`). */
  issuer?: string
  /** The discovery document's URL, when it is not at the issuer's well-known path. */
  wellKnown?: string
  authorization?: EndpointOption
  token?: EndpointOption
  /** The userinfo endpoint, or `{ request }` to fetch the profile yourself (e.g. several calls). */
  userinfo?: EndpointOption | { url?: string; params?: Record<string, ParamValue>; request: (context: UserinfoContext) => Awaitable<P> }
  jwks_endpoint?: string
  clientId?: string
  clientSecret?: string
  /**
   * Client metadata: `token_endpoint_auth_method` (`client_secret_basic` (default with a secret),
   * `client_secret_post`, `client_secret_jwt`, `private_key_jwt`, `none` (default without)),
   * `id_token_signed_response_alg`, ...
   */
  client?: Record<string, unknown> & { token_endpoint_auth_method?: string }
  /** The private key for `private_key_jwt` (a CryptoKey, or `{ key, kid }`). */
  privateKey?: CryptoKey | { key: CryptoKey; kid?: string }
  /** Default `["pkce"]`; `state` is added when a redirect proxy is used; `nonce` is for OIDC. */
  checks?: OAuthCheck[]
  /** Maps the provider's profile to the user. Default: sub/id, name, email, picture. */
  profile?: (profile: P, tokens: TokenSet) => Awaitable<ProfileUser>
  /** Which token fields to keep on the account (default: all of the spec's token fields). */
  account?: (tokens: TokenSet) => Partial<TokenSet>
  /**
   * Link to an existing user with the same email. Only ever on an address the provider vouches
   * for (`emailVerified`): an unverified address never links.
   */
  allowDangerousEmailAccountLinking?: boolean
  /**
   * Does the provider vouch for the profile's email? Default: the OpenID Connect claim
   * `email_verified === true` (or "true"); without it the address is unverified. Built-ins with a
   * documented rule of their own set this (GitHub, Discord, Microsoft Entra ID). A vouched address
   * is stored verified and may take over an unproven account (README, "Account linking and email
   * trust").
   */
  emailVerified?: boolean | ((profile: P, tokens: TokenSet) => boolean | Promise<boolean>)
  /** `redirect_uri` goes through this URL (overrides the config's `redirectProxyUrl`). */
  redirectProxyUrl?: string
  style?: ProviderStyle
  /** Limits on every call to this provider: `{ maxResponseSize, connectTimeout, timeout }` (bytes, ms). */
  outbound?: OutboundOptions
  /**
   * Sign-out also ends the user's session at the provider (OpenID Connect RP-Initiated Logout):
   * the browser goes to the provider's `end_session_endpoint` with `id_token_hint`, `client_id`
   * and `post_logout_redirect_uri` (default: the site's root URL, `<origin>/`; register it at the
   * provider), then back to the app. Only for `oidc` providers whose discovery document has one.
   */
  federatedSignOut?: boolean | { postLogoutRedirectUri?: string }
  /** Sign-out revokes the stored refresh token, then the access token, at the provider's `revocation_endpoint` (RFC 7009); a failure is logged and the sign-out goes on. */
  revokeTokensOnSignOut?: boolean
  [customFetch]?: typeof fetch
}

/** What `sendVerificationRequest` receives. */
export interface SendVerificationRequestParams {
  /** The normalised address the link is for (and the only recipient). */
  identifier: string
  /** The link to follow: this site's callback with the raw token. */
  url: string
  expires: Date
  provider: EmailProviderConfig
  /** The raw token (only the link carries it; the database holds its hash). */
  token: string
  /**
   * The one-time code to type on the verify-request page (only in the browser that asked for it),
   * or undefined when the provider has `code: false`.
   */
  code?: string
  /** When the code stops working (at most `expires`); undefined without a code. */
  codeExpires?: Date
  /**
   * What the link does: "signIn" (the default, a magic link) or "changeEmail" (the account page's
   * confirmation of a new address, issue #15). Custom senders word the mail for it.
   */
  purpose?: "signIn" | "changeEmail"
  theme: Theme
  request: Request
}

/** One-time codes sent with the link (`code` of an email provider). */
export interface EmailCodeOptions {
  /** `"digits"` (default, 6 long) or `"letters"`: 8 characters from an unambiguous alphabet (no 0/O, 1/I/L). */
  format?: "digits" | "letters"
  /** Characters in a code: 6 to 12 (default 6 for digits, 8 for letters). */
  length?: number
  /** Seconds a code stays valid, capped at the link's `maxAge`. Default 600 (10 minutes). */
  maxAge?: number
}

export interface EmailProviderConfig extends CommonProviderOptions {
  type: "email"
  /** An SMTP URL (`smtp://user:pass@host:587`) or nodemailer transport options. */
  server?: string | Record<string, unknown>
  /** The sender. Default `no-reply@<this site's host>`. */
  from?: string
  /** Seconds a link stays valid. Default 86400 (24 hours). */
  maxAge?: number
  /** Replaces the default mail (HTML and text from views/email.*.ejs, sent through `server`). */
  sendVerificationRequest?: (params: SendVerificationRequestParams) => Awaitable<void>
  /**
   * Turns the posted address into the identifier. Default: trimmed, lower-cased, NFKC, one plain
   * address (no lists, comments, quotes, IP literals, non-ASCII). Throw to refuse.
   */
  normalizeIdentifier?: (identifier: string) => string
  /** The raw token. Default 32 random bytes as hex. */
  generateVerificationToken?: () => Awaitable<string>
  /** Key for hashing tokens at rest. Default: the configuration's secret. */
  secret?: string
  /**
   * Scanner-safe links (default true): opening the link shows a page with one button, and only
   * the POST from it uses the token. `false`: opening the link signs in at once (Auth.js's way).
   */
  confirm?: boolean
  /** One-time codes in the mail, typed in the browser that asked. Default on; `false` turns them off. */
  code?: false | EmailCodeOptions
}

/** Who a passkey ceremony is for, as `getUserInfo` decides it. */
export interface WebAuthnUserInfo {
  user: { id?: string; email?: string | null; name?: string | null }
  /** The user is stored already: sign in (authenticate); otherwise register a new user. */
  exists: boolean
}

export interface WebAuthnProviderConfig extends CommonProviderOptions {
  type: "webauthn"
  /**
   * The relying party. Defaults come from the site's URL (AUTH_URL, or the trusted host): `id` its
   * hostname, `origin` its origin, `name` its hostname. Never from an untrusted Host header.
   */
  relayingParty?: { id?: string; name?: string; origin?: string | string[] }
  /** Default "preferred" (`required` refuses assertions without user verification). */
  userVerification?: "required" | "preferred" | "discouraged"
  /** Default "none". */
  attestationType?: "none" | "direct" | "enterprise"
  /** Offer passkeys in the browser's autofill on the sign-in page (conditional UI). Default true. */
  enableConditionalUI?: boolean
  /** Merged into the options of `generateRegistrationOptions` (@simplewebauthn/server). */
  registrationOptions?: Record<string, unknown>
  /** Merged into the options of `generateAuthenticationOptions`. */
  authenticationOptions?: Record<string, unknown>
  /** Merged into the options of `verifyRegistrationResponse` / `verifyAuthenticationResponse`. */
  verifyRegistrationOptions?: Record<string, unknown>
  verifyAuthenticationOptions?: Record<string, unknown>
  /**
   * Decides from the request whether a sign-in registers or authenticates (when the request does
   * not say): return the user and whether it exists, or null (authenticate, discoverable passkeys).
   * Default: the `email` query parameter, looked up with `getUserByEmail`.
   */
  getUserInfo?: (params: { provider: WebAuthnProviderConfig; request: Request; adapter: Adapter }) => Awaitable<WebAuthnUserInfo | null>
  /** The sign-in page's field for the email of a new passkey user. */
  formFields?: { email?: { label?: string; required?: boolean } }
}

/**
 * Any provider record. OAuth records are generic in their profile type (`OAuthProviderConfig<
 * GitHubProfile>`); `any` there lets every typed built-in stand in a `providers` list.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Provider = CredentialsConfig | OAuthProviderConfig<any> | EmailProviderConfig | WebAuthnProviderConfig

/** Options accepted by a built-in OAuth provider factory (every field of its defaults can be overridden). */
export type OAuthUserConfig<P extends Record<string, unknown> = Profile> = Partial<Omit<OAuthProviderConfig<P>, "type">>
