/**
 * The audit records that follow from Gatehouse's events (the capability's `onEvent`, which
 * lib/core/events.ts calls before the app's own handler): sign-in, sign-out, users, linked
 * accounts and passkeys, two-factor changes and challenges, revoked sessions. Only identifiers go
 * in: never the event's tokens or profile.
 */
import type { EventCallbacks } from "../types.js"
import { audit } from "./emit.js"
import type { AuditCallback } from "./types.js"
import type { LoggerInstance } from "../core/logger.js"

interface Target {
  readonly events: EventCallbacks & { readonly audit?: AuditCallback }
  readonly logger: LoggerInstance
}

type Message<Name extends keyof EventCallbacks> = Parameters<NonNullable<EventCallbacks[Name]>>[0]

const idOf = (user: { id?: unknown } | null | undefined) => (typeof user?.id === "string" ? user.id : undefined)

/** A passkey is a `webauthn` account; its providerAccountId is the credential id (public). */
function accountRecord(kind: "added" | "linked" | "removed" | "unlinked", user: { id?: unknown }, account: { type?: unknown; provider?: unknown; providerAccountId?: unknown }) {
  const passkey = account.type === "webauthn"
  return {
    type: passkey ? (kind === "added" || kind === "linked" ? "passkey.added" : "passkey.removed") : kind === "added" || kind === "linked" ? "account.linked" : "account.unlinked",
    userId: idOf(user),
    provider: typeof account.provider === "string" ? account.provider : undefined,
    ...(passkey ? { credentialId: account.providerAccountId } : { accountType: account.type }),
  } as const
}

export function auditEvent<Name extends keyof EventCallbacks>(config: Target, name: Name, message: Message<Name>, extra?: Record<string, unknown>): void {
  // Nothing happens without the callback (not even the record is built).
  if (!config.events.audit) return
  switch (name) {
    case "signIn": {
      const { user, account, isNewUser } = message as Message<"signIn">
      return audit(config, { type: "signin", userId: idOf(user), provider: account?.provider, method: account?.type, isNewUser: Boolean(isNewUser), ...extra })
    }
    case "signOut": {
      const signedOut = message as Message<"signOut">
      const userId = "session" in signedOut ? signedOut.session?.userId : typeof signedOut.token?.sub === "string" ? signedOut.token.sub : undefined
      return audit(config, { type: "signout", userId, ...extra })
    }
    case "createUser":
      return audit(config, { type: "user.created", userId: idOf((message as Message<"createUser">).user), ...extra })
    case "deleteUser":
      return audit(config, { type: "user.deleted", userId: idOf((message as Message<"deleteUser">).user), ...extra })
    case "linkAccount": {
      const { user, account } = message as Message<"linkAccount">
      return audit(config, { ...accountRecord("linked", user, account), ...extra })
    }
    case "unlinkAccount": {
      const { user, account } = message as Message<"unlinkAccount">
      return audit(config, { ...accountRecord("unlinked", user, account), ...extra })
    }
    case "twoFactorEnabled":
      return audit(config, { type: "two_factor.enabled", userId: (message as Message<"twoFactorEnabled">).userId, ...extra })
    case "twoFactorDisabled":
      return audit(config, { type: "two_factor.disabled", userId: (message as Message<"twoFactorDisabled">).userId, ...extra })
    case "twoFactorChallenge": {
      const { userId, method, outcome } = message as Message<"twoFactorChallenge">
      const failure = outcome !== "success"
      return audit(config, { type: "two_factor.challenge", outcome: failure ? "failure" : "success", reason: failure ? outcome : undefined, userId, method, ...extra })
    }
    case "revokeSession": {
      const { userId, scope, sessionId } = message as Message<"revokeSession">
      return audit(config, { type: "session.revoked", userId: userId || undefined, scope, sessionId, ...extra })
    }
    default:
      // updateUser and session: too general to say what changed (the actions that change a
      // password or an address record it themselves).
      return
  }
}
