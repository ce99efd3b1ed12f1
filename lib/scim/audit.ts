/**
 * What the audit trail records of SCIM provisioning (issue #29): its record types (they join
 * `AuditType` from capability.ts), written by the code making each change (lib/audit/emit.ts) with
 * the organization's id and the token's id; the actor is the directory, not a user.
 */
export const SCIM_AUDIT_TYPES = ["scim.token_created", "scim.token_revoked", "scim.refused", "scim.user_provisioned", "scim.user_updated", "scim.user_deactivated", "scim.user_reactivated", "scim.user_deprovisioned", "scim.group_changed"] as const
