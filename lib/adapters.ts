/**
 * The adapter interface: the one Auth.js adapters implement, so an existing `@auth/*-adapter`
 * plugs into Gatehouse unchanged and ours plug into Auth.js.
 *
 * Rules every adapter follows:
 * - `null` means "not found"; throwing means "failed" (reported as `AdapterError`).
 * - Dates are `Date` objects.
 * - `useVerificationToken` is atomic and single-use: of concurrent callers, exactly one gets the row.
 * - `getUserByAccount` matches on `provider` + `providerAccountId`.
 * - `deleteUser` also removes the user's accounts and sessions.
 * Every method is optional; Gatehouse checks at start-up that the ones a feature needs exist.
 */
import type { Account, Awaitable, User } from "./base-types.js"

export interface AdapterUser extends User {
  id: string
  email: string
  emailVerified: Date | null
  name?: string | null
  image?: string | null
}

/**
 * Auth.js's account types, so Gatehouse's adapters type-check as @auth/core adapters. (Gatehouse
 * also stores `"credentials"` accounts, linking credentials ids to stored users; Auth.js never
 * reads accounts by type.)
 */
export type AdapterAccountType = "oauth" | "oidc" | "email" | "webauthn"

export interface AdapterAccount extends Account {
  userId: string
  type: AdapterAccountType
}

export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
  /**
   * Gatehouse's session facts (optional: Auth.js adapters neither store nor return them). Written
   * only to adapters that have `listSessionsByUserId`, which store them.
   */
  createdAt?: Date | null
  /** Updated at most once per `session.updateAge`. */
  lastSeenAt?: Date | null
  userAgent?: string | null
  ip?: string | null
}

/** The token fields `updateAccountTokens` writes (`null` clears a field). */
export type AccountTokenUpdate = { [field in "access_token" | "refresh_token" | "expires_at" | "id_token" | "token_type" | "scope"]?: AdapterAccount[field] | null }

/**
 * A cookie session's record (Gatehouse extension), kept by the adapter when the app has no shared
 * store (`store`), so every process can list a user's cookie sessions.
 */
export interface AdapterCookieSession {
  /** The session id (`sid` in the cookie). */
  sid: string
  userId: string
  createdAt: Date
  lastSeenAt: Date
  expires: Date
  userAgent: string | null
  ip: string | null
  /**
   * The session's user when the record is kept under another key (`userId` is then a key such as
   * `idp:<provider>:sid:<sid>`: back-channel logout finds a provider session's sessions by it).
   * Records are unique per (`userId`, `sid`): one session may be recorded under several keys.
   */
  owner?: string | null
}

/**
 * A cookie-session revocation (Gatehouse extension), kept until `expires` (when every session it
 * ends would have expired anyway): kind `"session"` ends the session whose `sid` is `key`; kind
 * `"user"` ends every session of the user `key` that started before `notBefore`; kind `"spare"`
 * (recorded just before a `"user"` one, by "sign out everywhere else") keeps the session whose
 * `sid` is `key` from the user's revocations up to `notBefore`. An adapter stores `kind` as given.
 */
export interface AdapterSessionRevocation {
  /** Unique (made by Gatehouse). */
  id: string
  kind: "session" | "user" | "spare"
  key: string
  /** Kinds `"user"` and `"spare"` (null for `"session"`). */
  notBefore: Date | null
  /** When it was recorded (Gatehouse's clock): what `listSessionRevocations({ since })` compares. */
  createdAt: Date
  expires: Date
}

/** Which revocations `listSessionRevocations` returns: live ones (not expired), all, or only those recorded at or after `since` and/or with a `key` in `keys`. */
export interface SessionRevocationFilter {
  since?: Date
  keys?: string[]
}

/** Options of `deleteSessionsByUserId`. */
export interface DeleteSessionsOptions {
  /** A session token to keep (the caller's own session, for "sign out everywhere else"). */
  except?: string
}

export interface VerificationToken {
  identifier: string
  /** Hashed with the secret; the raw value only ever travels in the mail. */
  token: string
  expires: Date
}

export interface AdapterAuthenticator {
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  credentialPublicKey: string
  transports?: string | null
  credentialDeviceType: string
  /**
   * Gatehouse's passkey details (optional: Auth.js adapters neither store nor return them). Written
   * only to adapters that have `updateAuthenticator`, which store them. A name the person
   * recognises ("Chrome on Linux" by default, renamed on the account page), when it was
   * registered, and when it last signed in (null: not yet).
   */
  name?: string | null
  createdAt?: Date | null
  lastUsedAt?: Date | null
}

/** The fields `updateAuthenticator` writes (fields not given are kept). */
export interface AuthenticatorUpdate {
  name?: string | null
  lastUsedAt?: Date | null
  /** Never lowered: a counter below the stored one leaves the stored one. */
  counter?: number
}

export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>
  getAccount?(providerAccountId: AdapterAccount["providerAccountId"], provider: AdapterAccount["provider"]): Awaitable<AdapterAccount | null>
  /** Gatehouse extension: every account linked to the user (any order). */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  /**
   * Gatehouse extension: replaces the given token fields of the account (`null` clears one; fields
   * not given are kept); returns the updated account, or null when there is no such account.
   * `getAccessToken` stores refreshed provider tokens with it.
   */
  updateAccountTokens?(account: Pick<AdapterAccount, "provider" | "providerAccountId">, tokens: AccountTokenUpdate): Awaitable<AdapterAccount | null>
  createSession?(
    session: { sessionToken: string; userId: string; expires: Date } & Partial<Pick<AdapterSession, "createdAt" | "lastSeenAt" | "userAgent" | "ip">>,
  ): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>
  /** Gatehouse extension: the user's sessions (any order; expired ones may be included). */
  listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>
  /** Gatehouse extension: deletes every session of the user but `options.except`; returns how many. */
  deleteSessionsByUserId?(userId: string, options?: DeleteSessionsOptions): Awaitable<number>
  /**
   * Gatehouse extensions: cookie-session records and revocations, so that processes sharing only
   * the database (no `store`) share cookie-session revocation (see the README's "Sessions and
   * devices"). All five or none. `putCookieSession` creates or replaces the record with that userId and sid.
   */
  putCookieSession?(session: AdapterCookieSession): Awaitable<void>
  /** The user's cookie-session records (any order; expired ones may be included). */
  listCookieSessions?(userId: string): Awaitable<AdapterCookieSession[]>
  /** Removes the listed records of the user (unknown sids are ignored). */
  deleteCookieSessions?(userId: string, sids: string[]): Awaitable<void>
  /** Records a revocation (expired ones may be removed at any time). */
  addSessionRevocation?(revocation: AdapterSessionRevocation): Awaitable<void>
  /** The revocations not yet expired that match `filter` (every one when it is empty), any order. */
  listSessionRevocations?(filter: SessionRevocationFilter): Awaitable<AdapterSessionRevocation[]>
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  /**
   * Gatehouse extension (password accounts): removes every verification token with this
   * identifier (a user's outstanding reset links, when the password is reset or changed);
   * returns how many.
   */
  deleteVerificationTokens?(identifier: string): Awaitable<number>
  getAuthenticator?(credentialID: AdapterAuthenticator["credentialID"]): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(userId: AdapterAuthenticator["userId"]): Awaitable<AdapterAuthenticator[]>
  /** Gatehouse extension: removes the passkey; null when there was none. */
  deleteAuthenticator?(credentialID: AdapterAuthenticator["credentialID"]): Awaitable<AdapterAuthenticator | null>
  /**
   * Gatehouse extension: inside `transaction`, holds the user until the transaction ends (a row
   * lock on the user, SELECT ... FOR UPDATE; SQLite: the database's write lock; memory: a queue per
   * user), so another transaction locking the same user waits for it. Removing a way to sign in
   * checks "not the last one" and removes it under this lock. Outside a transaction it holds nothing.
   */
  lockUser?(userId: string): Awaitable<void>
  updateAuthenticatorCounter?(
    credentialID: AdapterAuthenticator["credentialID"],
    newCounter: AdapterAuthenticator["counter"],
  ): Awaitable<AdapterAuthenticator>
  /**
   * Gatehouse extension (passkey details): writes the given fields of the passkey (its name, its
   * last use, its counter, never lowered) in one write; returns the updated passkey, or null when
   * there is none. With it, a passkey sign-in records its last use with the counter, and the
   * account page can rename passkeys; adapters that have it store `name`, `createdAt` and
   * `lastUsedAt` given to `createAuthenticator`.
   */
  updateAuthenticator?(credentialID: AdapterAuthenticator["credentialID"], update: AuthenticatorUpdate): Awaitable<AdapterAuthenticator | null>
  /**
   * Gatehouse extension (both or neither): tells every process sharing the database of `message`
   * (JSON, under 1 kB). With no `store` configured, processes then learn of each other's sign-outs
   * and revocations at once, as with Redis, instead of within the one second their caches trust
   * an entry. The SQL adapter has it on PostgreSQL opened from a URL (LISTEN/NOTIFY).
   */
  publishSessionMessage?(message: string): Promise<void>
  /**
   * Resolves once listening; from then on calls `listener` with every message any process
   * publishes, this one's included, while the connection lasts (messages sent while it is being
   * restored are lost: the caches' one-second bound covers them). Rejects when listening cannot
   * start.
   */
  subscribeSessionMessages?(listener: (message: string) => void): Promise<void>
}

// Capabilities' own adapter methods join `Adapter` from their folders (declaration merging); these
// lines make the public type include them, and export their record types as before.
export type { AdapterTwoFactor, RecoveryCodeUse } from "./two-factor/adapter.js"
export type {} from "./password/adapter.js"
export type { AdapterUserBan, UserListQuery } from "./admin/adapter.js"
export type { AdapterApiKey, ApiKeyOwner } from "./api-keys/adapter.js"
export type { AdapterOidcRecord, OidcRecordFilter, OidcRecordLookup } from "./identity-provider/adapter.js"
export type { AdapterScimGroup, AdapterScimToken, AdapterScimUser, ScimGroupUpdate, ScimUserUpdate } from "./scim/adapter.js"
export type { AdapterDomain, AdapterSsoConnection, OidcSettings, SamlSettings, SsoConnectionUpdate, SsoMapping } from "./sso/adapter.js"
export type { AdapterInvitation, AdapterMember, AdapterMembership, AdapterOrganization, InvitationUpdate, OrganizationUpdate, RolePermissions } from "./organizations/adapter.js"
