/**
 * Collection names, the handles the adapter keeps (created once, not per call), and the indexes
 * `setupIndexes` creates: every constraint the core relies on, as in the SQL schema.
 */
import type { Collection, Db, IndexDescription, MongoClient } from "mongodb"

export interface CollectionNames {
  Users: string
  Accounts: string
  Sessions: string
  VerificationTokens: string
  Authenticators: string
  TwoFactor: string
  RecoveryCodes: string
  Passwords: string
  CookieSessions: string
  SessionRevocations: string
  Organizations: string
  Members: string
  Invitations: string
  SsoConnections: string
  SsoDomains: string
  ScimTokens: string
  ScimUsers: string
  ScimGroups: string
  UserBans: string
  ApiKeys: string
  OidcRecords: string
}

export const DEFAULT_COLLECTIONS: Readonly<CollectionNames> = Object.freeze({
  Users: "users",
  Accounts: "accounts",
  Sessions: "sessions",
  VerificationTokens: "verification_tokens",
  Authenticators: "authenticators",
  TwoFactor: "two_factor",
  RecoveryCodes: "recovery_codes",
  Passwords: "passwords",
  CookieSessions: "cookie_sessions",
  SessionRevocations: "session_revocations",
  Organizations: "organizations",
  Members: "members",
  Invitations: "invitations",
  SsoConnections: "sso_connections",
  SsoDomains: "sso_domains",
  ScimTokens: "scim_tokens",
  ScimUsers: "scim_users",
  ScimGroups: "scim_groups",
  UserBans: "user_bans",
  ApiKeys: "api_keys",
  OidcRecords: "oidc_records",
})

export interface CollectionOptions {
  /** Collection names to use instead of the defaults (users, accounts, sessions, verification_tokens, authenticators). */
  collections?: Partial<CollectionNames>
}

export function collectionNames(options: CollectionOptions = {}): CollectionNames {
  const names = { ...DEFAULT_COLLECTIONS, ...options.collections }
  for (const [role, name] of Object.entries(names)) {
    if (typeof name !== "string" || name === "" || name.includes("$") || name.includes("\0") || name.startsWith("system.")) {
      throw new TypeError(`MongoDBAdapter: collections.${role} must be a collection name (got ${JSON.stringify(name)})`)
    }
  }
  return names
}

export interface Handles {
  client: MongoClient
  db: Db
  users: Collection
  accounts: Collection
  sessions: Collection
  verificationTokens: Collection
  authenticators: Collection
  twoFactor: Collection
  recoveryCodes: Collection
  passwords: Collection
  cookieSessions: Collection
  sessionRevocations: Collection
  organizations: Collection
  members: Collection
  invitations: Collection
  ssoConnections: Collection
  ssoDomains: Collection
  scimTokens: Collection
  scimUsers: Collection
  scimGroups: Collection
  userBans: Collection
  apiKeys: Collection
  oidcRecords: Collection
}

/** The database and collection handles. `db()` and `collection()` only build handles: no I/O. */
export function openHandles(client: MongoClient, databaseName: string | undefined, names: CollectionNames): Handles {
  const db = client.db(databaseName)
  return {
    client,
    db,
    users: db.collection(names.Users),
    accounts: db.collection(names.Accounts),
    sessions: db.collection(names.Sessions),
    verificationTokens: db.collection(names.VerificationTokens),
    authenticators: db.collection(names.Authenticators),
    twoFactor: db.collection(names.TwoFactor),
    recoveryCodes: db.collection(names.RecoveryCodes),
    passwords: db.collection(names.Passwords),
    cookieSessions: db.collection(names.CookieSessions),
    sessionRevocations: db.collection(names.SessionRevocations),
    organizations: db.collection(names.Organizations),
    members: db.collection(names.Members),
    invitations: db.collection(names.Invitations),
    ssoConnections: db.collection(names.SsoConnections),
    ssoDomains: db.collection(names.SsoDomains),
    scimTokens: db.collection(names.ScimTokens),
    scimUsers: db.collection(names.ScimUsers),
    scimGroups: db.collection(names.ScimGroups),
    userBans: db.collection(names.UserBans),
    apiKeys: db.collection(names.ApiKeys),
    oidcRecords: db.collection(names.OidcRecords),
  }
}

/**
 * The indexes, per collection. Unique: users.email (partial: only documents whose email is a
 * string, and the adapter stores no email at all for users without one, so those never
 * collide), accounts (provider, providerAccountId), sessions.sessionToken, verification tokens
 * (identifier, token), authenticators.credentialID. Plain: every `userId`, for deleteUser and
 * listing a user's authenticators. Cookie-session records and revocations: `userId`, `createdAt`
 * and `key`, and a TTL index on `expires`. Organizations (issue #27): unique slug, membership
 * (organizationId, userId), invitation tokenHash and (organizationId, email); plain members'
 * `userId` (a user's memberships). Enterprise sign-in (issue #28): connections by
 * `organizationId`; domains unique per (organizationId, domain), plain `domain`, and unique
 * `verifiedDomain` (partial: only verified claims hold it), so a domain is verified for one
 * organization at most. SCIM provisioning (issue #29): unique token `tokenHash`, plain
 * `organizationId`; provisioned users unique per (organizationId, userId), (organizationId,
 * userNameKey) and (organizationId, externalId) (partial: only string externalIds, so users
 * without one never collide), plain `userId` (deleteUser); groups unique per (organizationId,
 * displayNameKey), plain `members` (deleteUser takes the user out of them). Admin tools (issue
 * #30): users by (email, _id), every user (users without an email too, which the partial unique
 * index leaves out), for listing them a page at a time; bans need none (`_id` is the user's id).
 * API keys (issue #31): unique `keyHash`, plain `userId` and `organizationId` (a user's or an
 * organization's keys listed, and deleted with their owner). Identity-provider records (issue
 * #32): unique (model, id); plain `grantId` (a grant revoked), (model, uid), (model, userCode),
 * (accountId, model) (a user's listed, and deleted with the user), (model, clientId); a TTL index
 * on `expiresAt` (records without one, null, are kept).
 * Names are the server's defaults (`email_1`, ...).
 */
export function indexSpecs(names: CollectionNames): { collection: string; indexes: IndexDescription[] }[] {
  return [
    { collection: names.Users, indexes: [{ key: { email: 1 }, unique: true, partialFilterExpression: { email: { $type: "string" } } }, { key: { email: 1, _id: 1 } }] },
    { collection: names.Accounts, indexes: [{ key: { provider: 1, providerAccountId: 1 }, unique: true }, { key: { userId: 1 } }] },
    { collection: names.Sessions, indexes: [{ key: { sessionToken: 1 }, unique: true }, { key: { userId: 1 } }] },
    { collection: names.VerificationTokens, indexes: [{ key: { identifier: 1, token: 1 }, unique: true }] },
    { collection: names.Authenticators, indexes: [{ key: { credentialID: 1 }, unique: true }, { key: { userId: 1 } }] },
    { collection: names.RecoveryCodes, indexes: [{ key: { userId: 1, hash: 1 }, unique: true }] },
    { collection: names.CookieSessions, indexes: [{ key: { userId: 1 } }, { key: { expires: 1 }, expireAfterSeconds: 0 }] },
    { collection: names.SessionRevocations, indexes: [{ key: { createdAt: 1 } }, { key: { key: 1 } }, { key: { expires: 1 }, expireAfterSeconds: 0 }] },
    { collection: names.Organizations, indexes: [{ key: { slug: 1 }, unique: true }] },
    { collection: names.Members, indexes: [{ key: { organizationId: 1, userId: 1 }, unique: true }, { key: { userId: 1 } }] },
    { collection: names.Invitations, indexes: [{ key: { tokenHash: 1 }, unique: true }, { key: { organizationId: 1, email: 1 }, unique: true }] },
    { collection: names.SsoConnections, indexes: [{ key: { organizationId: 1 } }] },
    {
      collection: names.SsoDomains,
      indexes: [
        { key: { organizationId: 1, domain: 1 }, unique: true },
        { key: { domain: 1 } },
        { key: { verifiedDomain: 1 }, unique: true, partialFilterExpression: { verifiedDomain: { $type: "string" } } },
      ],
    },
    { collection: names.ScimTokens, indexes: [{ key: { tokenHash: 1 }, unique: true }, { key: { organizationId: 1 } }] },
    {
      collection: names.ScimUsers,
      indexes: [
        { key: { organizationId: 1, userId: 1 }, unique: true },
        { key: { organizationId: 1, userNameKey: 1 }, unique: true },
        { key: { organizationId: 1, externalId: 1 }, unique: true, partialFilterExpression: { externalId: { $type: "string" } } },
        { key: { userId: 1 } },
      ],
    },
    { collection: names.ScimGroups, indexes: [{ key: { organizationId: 1, displayNameKey: 1 }, unique: true }, { key: { members: 1 } }] },
    { collection: names.ApiKeys, indexes: [{ key: { keyHash: 1 }, unique: true }, { key: { userId: 1 } }, { key: { organizationId: 1 } }] },
    {
      collection: names.OidcRecords,
      indexes: [
        { key: { model: 1, id: 1 }, unique: true },
        { key: { grantId: 1 } },
        { key: { model: 1, uid: 1 } },
        { key: { model: 1, userCode: 1 } },
        { key: { accountId: 1, model: 1 } },
        { key: { model: 1, clientId: 1 } },
        { key: { expiresAt: 1 }, expireAfterSeconds: 0 },
      ],
    },
  ]
}

/**
 * Creates the indexes (and so the collections) the adapter relies on: run it once at deploy
 * time, like a migration, with the same `collections` option as the adapter. Re-running it is a
 * no-op. Returns the names of the indexes, per collection.
 */
export async function setupIndexes(db: Db, options: CollectionOptions = {}): Promise<Record<string, string[]>> {
  const created: Record<string, string[]> = {}
  for (const { collection, indexes } of indexSpecs(collectionNames(options))) {
    created[collection] = await db.collection(collection).createIndexes(indexes)
  }
  return created
}
