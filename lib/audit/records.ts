/**
 * The fields records take from events' messages, shared by the audit trail's own events
 * (from-events.ts) and the capabilities' (their audit.ts): only identifiers, never the event's
 * tokens or profile.
 */
import type { AuditEntry } from "../core/capability.js"
import type { AuditType } from "./types.js"

export const idOf = (user: { id?: unknown } | null | undefined) => (typeof user?.id === "string" ? user.id : undefined)

/**
 * An account linked or unlinked: `types.account`, or `types.passkey` for a passkey (a `webauthn`
 * account, whose providerAccountId is the credential id, public).
 */
export function accountRecord(
  types: { readonly account: AuditType; readonly passkey: AuditType },
  user: { id?: unknown },
  account: { type?: unknown; provider?: unknown; providerAccountId?: unknown },
): AuditEntry {
  const passkey = account.type === "webauthn"
  return {
    type: passkey ? types.passkey : types.account,
    userId: idOf(user),
    provider: typeof account.provider === "string" ? account.provider : undefined,
    ...(passkey ? { credentialId: account.providerAccountId } : { accountType: account.type }),
  }
}
