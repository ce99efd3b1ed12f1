/**
 * What the audit trail records of enterprise sign-in (issue #28): its record types (they join
 * `AuditType` from capability.ts). A refused identity provider answer is `sso.refused` (reason:
 * the error type, with the connection id); connection and domain changes are recorded by
 * the code making them (lib/audit/emit.ts), with the organization and connection ids.
 */
export const SSO_AUDIT_TYPES = ["sso.refused", "sso.connection_created", "sso.connection_updated", "sso.connection_deleted", "sso.domain_added", "sso.domain_verified", "sso.domain_enforced", "sso.domain_removed", "sso.logout"] as const
