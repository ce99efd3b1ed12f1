/** The parameters and results of the callbacks and events in the configuration (spec: Events). */
import type { IncomingMessage } from "node:http"
import type { AdapterAuthenticator, AdapterSession, AdapterUser } from "./adapters.js"
import type { Account, Awaitable, DefaultSession, JWT, Profile, Session, User } from "./base-types.js"
import type { AuditRecord } from "./audit/types.js"

/** The request object a callback receives: Express/Connect `req` on that path, else a web Request. */
export type AuthRequestLike = Request | (IncomingMessage & Record<string, unknown>)

export interface SignInCallbackParams {
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  email?: { verificationRequest?: boolean }
  credentials?: Record<string, unknown>
}

export interface JwtCallbackParams {
  token: JWT
  user?: User | AdapterUser
  account?: Account | null
  profile?: Profile
  trigger?: "signIn" | "signUp" | "update"
  /** @deprecated test `trigger === "signUp"`. */
  isNewUser?: boolean
  /** Client data sent with a session update. Validate it before using it. */
  session?: unknown
}

export interface SessionCallbackParams {
  session: Session
  /** Cookie strategy. */
  token: JWT
  /** Database strategy. */
  user: AdapterUser
  /** The client data of a session update. */
  newSession?: unknown
  trigger?: "update"
  /**
   * With a passkey provider: the signed-in user's passkeys (`listAuthenticatorsByUserId`), read
   * only when called.
   */
  authenticators?: () => Promise<AdapterAuthenticator[]>
}

export interface AuthorizedCallbackParams {
  request: AuthRequestLike
  auth: Session | null
}

export interface CallbacksOptions {
  signIn?: (params: SignInCallbackParams) => Awaitable<boolean | string>
  redirect?: (params: { url: string; baseUrl: string }) => Awaitable<string>
  session?: (params: SessionCallbackParams) => Awaitable<Session | DefaultSession>
  jwt?: (params: JwtCallbackParams) => Awaitable<JWT | null>
  authorized?: (params: AuthorizedCallbackParams) => Awaitable<boolean | Response | undefined | null>
}

/**
 * The events capabilities fire (lib/core/capability.ts, `events`), by declaration merging from each
 * capability's folder: `declare module "../callbacks.js" { interface CapabilityEvents { twoFactorEnabled?: ... } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CapabilityEvents {}

/** The events: the core's here (fired by the core, or by more than one capability), each capability's from its folder. */
export interface EventCallbacks extends CapabilityEvents {
  signIn?: (message: { user: User; account?: Account | null; profile?: Profile; isNewUser?: boolean }) => Awaitable<void>
  signOut?: (message: { session: AdapterSession | null | undefined } | { token: JWT | null }) => Awaitable<void>
  createUser?: (message: { user: User }) => Awaitable<void>
  updateUser?: (message: { user: User }) => Awaitable<void>
  linkAccount?: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser | Profile }) => Awaitable<void>
  session?: (message: { session: Session; token: JWT } | { session: Session; user?: AdapterUser }) => Awaitable<void>
  /** Sessions were revoked (`revokeSession`, `revokeOtherSessions`, `revokeUserSessions`, or the HTTP action). */
  revokeSession?: (message: RevokeSessionMessage) => Awaitable<void>
  /**
   * The audit trail (issue #20): one structured record per security-relevant event, success or
   * failure (see the README's "Audit trail"). Called in line but never awaited; a throw or a
   * rejection is logged and the request goes on.
   */
  audit?: (record: AuditRecord) => unknown
}

export interface RevokeSessionMessage {
  userId: string
  /** "session": the one session `sessionId`; "others": every session but the caller's; "user": every session. */
  scope: "session" | "others" | "user"
  sessionId?: string
}

