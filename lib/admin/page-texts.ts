/**
 * The admin pages' status line: what a form that came back says (`?saved=<action>` or
 * `?error=<type>`), always one of this folder's texts (or the identity provider's, for its clients'
 * forms: lib/identity-provider/admin-section.ts), never the query's own text.
 */
import type { MessageKey, Messages } from "../i18n/index.js"
import { OIDC_CLIENT_ERRORS } from "../identity-provider/admin-section.js"

const SAVED = new Set(["create-user", "update-user", "ban", "unban", "revoke-sessions", "remove-two-factor", "send-password-reset", "delete-user", "stop-impersonating"])
/** The refusals actions/post.ts sends back to the page (EXPLAINED there). */
const ERRORS = new Set(["EmailInUse", "InvalidRequest", "ImpersonationDenied", "LastOwner", "MissingAdapterMethods"])

export function statusOf(t: Messages, saved: string | undefined, error: string | undefined): { saved?: string; error?: string } {
  if (error) {
    if (OIDC_CLIENT_ERRORS.has(error)) return { error: t[`oidcProvider.admin.error.${error}` as MessageKey] }
    return { error: ERRORS.has(error) ? t[`admin.error.${error}` as MessageKey] : t["error.default.message"] }
  }
  if (saved === "delete-oidc-client") return { saved: t["oidcProvider.admin.saved.delete-oidc-client"] }
  if (saved) return { saved: SAVED.has(saved) ? t[`admin.saved.${saved}` as MessageKey] : t["admin.saved"] }
  return {}
}
