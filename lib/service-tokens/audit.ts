/**
 * What the audit trail (lib/audit/) records of service tokens (issue #31): each token issued, with
 * its id (`jti`), audience, scopes and how the caller proved itself, never the token; each refused
 * request, with the error type as `reason`.
 */
export const SERVICE_TOKEN_AUDIT_TYPES = ["service_token.issued", "service_token.refused"] as const
