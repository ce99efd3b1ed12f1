/**
 * The named errors only provider tokens throw, all to the app's code through `getAccessToken`:
 * no route answers them, so the capability has no outcomes for them. Their types join `ErrorType`
 * here (declaration merging, lib/core/errors.ts), and `gatehouse/errors` re-exports them.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    RefreshTokenError: true
    TokenRefreshFailed: true
    ProviderTokenMissing: true
  }
}

/** The provider refused the refresh token (`invalid_grant`: revoked, expired, or used): the user must sign in with it again. */
export class RefreshTokenError extends AuthError {
  static type = "RefreshTokenError" as const
}
/** Refreshing a provider's access token failed: unreachable twice (nothing sent), or a request that may have reached the provider got no usable answer (not resent at once). */
export class TokenRefreshFailed extends AuthError {
  static type = "TokenRefreshFailed" as const
}
/** `getAccessToken`: the signed-in user has no stored access token for that provider (not linked, or signed in another way). */
export class ProviderTokenMissing extends AuthError {
  static type = "ProviderTokenMissing" as const
}
