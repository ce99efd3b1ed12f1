/**
 * The audit records that follow from events (the capability's `onEvent`, which lib/core/events.ts
 * calls before the app's own handler): the core's events are described here (sign-in, sign-out, a
 * new user, a linked account or passkey, revoked sessions), a capability's by that capability
 * (its `auditEvents`, handed over with the event). Only identifiers go in: never the event's
 * tokens or profile.
 */
import type { AuditEvents, EventHook } from "../core/capability.js"
import { audit } from "./emit.js"
import { accountRecord, idOf } from "./records.js"

/** updateUser and session are not recorded: too general to say what changed (the actions that change a password or an address record it themselves). */
export const CORE_AUDIT_EVENTS: AuditEvents = {
  signIn: ({ user, account, isNewUser }) => ({ type: "signin", userId: idOf(user), provider: account?.provider, method: account?.type, isNewUser: Boolean(isNewUser) }),
  signOut: (signedOut) => {
    const userId = "session" in signedOut ? signedOut.session?.userId : typeof signedOut.token?.sub === "string" ? signedOut.token.sub : undefined
    return { type: "signout", userId }
  },
  createUser: ({ user }) => ({ type: "user.created", userId: idOf(user) }),
  linkAccount: ({ user, account }) => accountRecord({ account: "account.linked", passkey: "passkey.added" }, user, account),
  revokeSession: ({ userId, scope, sessionId }) => ({ type: "session.revoked", userId: userId || undefined, scope, sessionId }),
}

export const auditEvent: EventHook = (config, _name, message, fields, record) => {
  // Nothing happens without the callback (not even the record is built).
  if (!config.events.audit || !record) return
  audit(config, { ...record(message), ...fields })
}
