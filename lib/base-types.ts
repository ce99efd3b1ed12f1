/**
 * The shapes every layer shares, beneath the configuration: the user, the session and its token,
 * a provider's profile and tokens, the stored account, the page theme, and `Awaitable`. Adapters,
 * providers, callbacks and the capabilities' option files import them from here; `types.ts`
 * re-exports them with the configuration that is built from those files, so no import goes back
 * up to it (no import cycles, issue #25). Declaration merging on `Session`, `User` or `JWT` works
 * through `gatehouse` as before (a re-exported interface is the same symbol).
 */

export type Awaitable<T> = T | PromiseLike<T>

/** How a provider signs people in; also the `type` of a stored account. */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

/** The user as the client sees it. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** What `GET /auth/session`, `req.auth` and `getSession` return by default. */
export interface DefaultSession {
  user?: User
  /** ISO 8601 expiry of the session. */
  expires: string
  /** `"RefreshTokenError"` once a provider refused the refresh token (`getAccessToken`): send the user to sign in again. */
  error?: "RefreshTokenError"
  /** How the user signed in (RFC 8176 values): `["pwd"]`, `["oauth"]`, `["pwd", "otp"]`... (issue #16). */
  amr?: string[]
  /** When the user last authenticated (a sign-in or a second factor), in epoch seconds. */
  authTime?: number
}

/** Extend by declaration merging to type fields your `session` callback adds. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Session extends DefaultSession {}

/** The payload of the encrypted session cookie. Extra keys are allowed. */
export interface JWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/** Identity claims from an OAuth/OIDC provider. */
export interface Profile extends Record<string, unknown> {
  sub?: string | null
  id?: string | number | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  picture?: unknown
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: string | number | Date | null
  address?: {
    formatted?: string | null
    street_address?: string | null
    locality?: string | null
    region?: string | null
    postal_code?: string | null
    country?: string | null
  } | null
}

export type JsonPrimitive = string | number | boolean | null
export type JsonObject = { [key: string]: JsonValue | undefined }
export type JsonValue = JsonPrimitive | JsonObject | JsonValue[]

/** RFC 9396 authorization details, as a token endpoint returns them. */
export interface AuthorizationDetails {
  readonly type: string
  readonly locations?: string[]
  readonly actions?: string[]
  readonly datatypes?: string[]
  readonly privileges?: string[]
  readonly identifier?: string
  readonly [parameter: string]: JsonValue | undefined
}

/** Fields of a token endpoint response (all optional), plus `expires_at` in seconds. */
export interface TokenSet {
  access_token?: string
  refresh_token?: string
  id_token?: string
  scope?: string
  /** Always lowercased. */
  token_type?: Lowercase<string>
  /** Seconds, as the token endpoint sent it. */
  expires_in?: number
  /** Absolute expiry in seconds since the epoch, computed from `expires_in`. */
  expires_at?: number
  authorization_details?: AuthorizationDetails[]
  [parameter: string]: JsonValue | undefined
}

export interface Account extends TokenSet {
  provider: string
  providerAccountId: string
  type: ProviderType
  userId?: string
  session_state?: JsonValue
}

export interface Theme {
  colorScheme?: "auto" | "dark" | "light"
  /** Any CSS colour: `#2563eb`, `rgb(37 99 235)`, `teal`. */
  brandColor?: string
  /** An http(s) or site-relative image URL. */
  logo?: string
  /** Text colour on brand-coloured buttons. */
  buttonText?: string
  /** The app's name, in the account page's header (default: the site's host name). */
  appName?: string
}
