/** Issuer URL spellings for providers whose issuers end with a slash. */

/**
 * `issuer` with a trailing slash. The flow compares the discovered issuer with the configured one
 * character for character, and Auth0 and authentik write theirs with the slash.
 */
export function withTrailingSlash(issuer: string): string {
  return issuer.endsWith("/") ? issuer : `${issuer}/`
}
