/**
 * Sign in with Apple (OpenID Connect). `gatehouse/providers/apple`.
 *
 * Issuer https://appleid.apple.com. The authorization request asks for the `name email` scopes,
 * which Apple only grants with `response_mode=form_post`: Apple then POSTs the code to
 * `/auth/callback/apple` from its own site. The profile is the ID token's claims (Apple has no
 * userinfo endpoint); the token request sends the client id and secret in the form body (Apple's
 * only method). Checks: `nonce` and `state` (Apple documents no PKCE).
 *
 * The client secret. Apple's client secret is not a fixed string but an ES256 JWT that you sign
 * with the private key (.p8) of a Sign in with Apple key: `iss` = your team id, `sub` = the client
 * id (the Services ID), `aud` = https://appleid.apple.com, `kid` = the key id, valid for at most
 * six months. Generate it at deploy time with `appleClientSecret()` below (or any JWT tool) and
 * pass it as `clientSecret` or AUTH_APPLE_SECRET; renew it before it expires.
 *
 * Cookies. Apple's form_post is a cross-site POST, and browsers do not send `SameSite=Lax` cookies
 * with it, so the `state`, `nonce` and `callbackUrl` cookies would be missing at the callback
 * (InvalidCheck). Give them `SameSite=None` (HTTPS only), for example
 * `cookies: { state: { options: { sameSite: "none", secure: true } }, nonce: { options: { sameSite: "none", secure: true } }, callbackUrl: { options: { sameSite: "none", secure: true } } }`.
 *
 * Name. Apple sends the user's name only once, on the first sign-in, as a `user` JSON field of
 * the form post, never in the ID token: the mapped `name` is null.
 *
 * Environment: AUTH_APPLE_ID (the Services ID), AUTH_APPLE_SECRET (the JWT).
 */
import { createPrivateKey, sign, type KeyObject } from "node:crypto"
import type { OAuthProviderConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./oauth/options.js"

/** The ID token claims of Sign in with Apple. */
export interface AppleProfile extends Record<string, unknown> {
  iss: string
  aud: string
  exp: number
  iat: number
  /** The user's stable id for your team. */
  sub: string
  nonce?: string
  nonce_supported?: boolean
  c_hash?: string
  at_hash?: string
  auth_time?: number
  /** With the `email` scope: the real address or a private relay address. */
  email?: string
  email_verified?: boolean | "true" | "false"
  is_private_email?: boolean | "true" | "false"
  /** 0 unsupported, 1 unknown, 2 likely real. */
  real_user_status?: 0 | 1 | 2
  /** Set while an app is transferred between teams. */
  transfer_sub?: string
}

/** The longest lifetime Apple accepts for a client secret: six months, in seconds. */
export const APPLE_CLIENT_SECRET_MAX_AGE = 15777000

export interface AppleClientSecretOptions {
  /** Your Apple Developer team id (the JWT's `iss`). */
  teamId: string
  /** The Services ID used as client id (the JWT's `sub`). */
  clientId: string
  /** The id of the Sign in with Apple key (the JWT header's `kid`). */
  keyId: string
  /** The key's .p8 content (PKCS #8 PEM) or a KeyObject. */
  privateKey: string | KeyObject
  /** Lifetime in seconds, at most six months. Default: six months. */
  expiresIn?: number
  /** The issue time in seconds since the epoch. Default: now. */
  now?: number
}

/** The client secret Apple expects: an ES256 JWT signed with your Sign in with Apple key. */
export function appleClientSecret(options: AppleClientSecretOptions): string {
  const expiresIn = options.expiresIn ?? APPLE_CLIENT_SECRET_MAX_AGE
  if (!Number.isInteger(expiresIn) || expiresIn <= 0 || expiresIn > APPLE_CLIENT_SECRET_MAX_AGE) {
    throw new RangeError(`expiresIn must be a whole number of seconds between 1 and ${APPLE_CLIENT_SECRET_MAX_AGE} (got ${expiresIn})`)
  }
  const key = typeof options.privateKey === "string" ? createPrivateKey(options.privateKey) : options.privateKey
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new TypeError("privateKey must be a P-256 EC private key (the .p8 file of a Sign in with Apple key)")
  }
  const iat = options.now ?? Math.floor(Date.now() / 1000)
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url")
  const header = encode({ alg: "ES256", kid: options.keyId, typ: "JWT" })
  const payload = encode({ iss: options.teamId, iat, exp: iat + expiresIn, aud: "https://appleid.apple.com", sub: options.clientId })
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), { key, dsaEncoding: "ieee-p1363" })
  return `${header}.${payload}.${signature.toString("base64url")}`
}

export default function Apple(options: OAuthUserConfig<AppleProfile> = {}): OAuthProviderConfig<AppleProfile> {
  return oauthProvider<AppleProfile>(
    {
      id: "apple",
      name: "Apple",
      type: "oidc",
      issuer: "https://appleid.apple.com",
      // response_mode is a flow parameter that `params` may not set, so it lives in the URL.
      authorization: { url: "https://appleid.apple.com/auth/authorize?response_mode=form_post", params: { scope: "name email" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["nonce", "state"],
      profile: (profile) => ({
        id: profile.sub,
        name: null,
        email: profile.email ?? null,
        image: null,
      }),
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}
