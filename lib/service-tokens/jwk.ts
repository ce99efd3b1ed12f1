/**
 * The JSON shapes of keys and claims, as Gatehouse's published types name them: declared here so
 * the declarations an app compiles against need nothing of `jose` (its own types stay inside).
 */

/** A JSON Web Key (RFC 7517): its members as JSON has them. */
export interface Jwk {
  kty?: string
  crv?: string
  kid?: string
  alg?: string
  use?: string
  x?: string
  y?: string
  d?: string
  [parameter: string]: unknown
}

/** A JWK Set (RFC 7517 §5). */
export interface JwkSet {
  keys: Jwk[]
}

/** A JWT's registered claims (RFC 7519 §4.1), and any other. */
export interface JwtClaims {
  iss?: string
  sub?: string
  aud?: string | string[]
  jti?: string
  nbf?: number
  exp?: number
  iat?: number
  [claim: string]: unknown
}
