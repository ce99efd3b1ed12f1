/**
 * `gatehouse/adapters/memory`: users, accounts, sessions, verification tokens and authenticators
 * in this process's memory. Complete, and the reference behaviour the contract kit checks the
 * others against; for tests and development (it warns when used in production).
 *
 * It behaves like a database with the SQL adapter's constraints: one user per email, one account
 * per provider + providerAccountId, one session per token; deleting a user removes its accounts,
 * sessions, authenticators, memberships, SCIM records, ban, API keys and identity-provider records
 * (deleting an organization removes its API keys too). Records are copied in and out, so
 * callers never hold the stored objects. A transaction undoes only its own writes when it fails (other requests' writes made
 * meanwhile stay), and its writes are visible to others before it ends (read uncommitted);
 * `lockUser` serialises the transactions that lock the same user (in this process: it is memory).
 */
import { randomUUID } from "node:crypto"
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, AdapterUser } from "../../lib/adapters.js"
import { DEVELOPMENT_ADAPTER, type SessionMessageMethod, type TransactionalAdapter } from "../../lib/core/adapter.js"
import { forgetTwoFactor, twoFactorMethods, type TwoFactorMaps } from "./two-factor.js"
import { cookieSessionMethods, type CookieSessionMaps } from "./cookie-sessions.js"
import { passwordMethods, type PasswordMaps } from "./passwords.js"
import { forgetMemberships, organizationMethods, type OrganizationMaps } from "./organizations.js"
import { ssoMethods, type SsoMaps } from "./sso.js"
import { forgetScimUser, scimMethods, type ScimMaps } from "./scim.js"
import { adminMethods, forgetUserBan, type AdminMaps } from "./admin.js"
import { apiKeyMethods, forgetOrganizationApiKeys, forgetUserApiKeys, type ApiKeyMaps } from "./api-keys.js"
import { forgetUserOidcRecords, oidcRecordMethods, type OidcRecordMaps } from "./identity-provider.js"
import { inTransaction, put, remove, userLocks } from "./transactions.js"

interface Store extends TwoFactorMaps, CookieSessionMaps, PasswordMaps, OrganizationMaps, SsoMaps, ScimMaps, AdminMaps, ApiKeyMaps, OidcRecordMaps {
  accounts: Map<string, AdapterAccount>
  sessions: Map<string, AdapterSession>
  authenticators: Map<string, AdapterAuthenticator>
}

/**
 * The memory adapter, plus direct access to its store (for tests that check what was written).
 * Without the session messages (issue #36): one process has no other to tell.
 */
export interface MemoryAdapterInstance extends Required<Omit<TransactionalAdapter, "transaction" | SessionMessageMethod>>, Pick<Adapter, SessionMessageMethod> {
  transaction<T>(work: (adapter: Adapter) => Promise<T>): Promise<T>
  readonly store: Readonly<Store>
}

const accountKey = (provider: string, providerAccountId: string) => JSON.stringify([provider, providerAccountId])
const tokenKey = (identifier: string, token: string) => JSON.stringify([identifier, token])
/**
 * A copy of a record: Dates re-created, nested JSON values (session_state, authorization_details)
 * deep-copied. Not structuredClone: its Dates come from Node's main realm, which fail
 * `instanceof Date` inside test runners' sandboxes, where this adapter is used most.
 */
function copy<T extends object>(value: T): T {
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (field instanceof Date) out[key] = new Date(field.getTime())
    else if (field !== null && typeof field === "object") out[key] = JSON.parse(JSON.stringify(field))
    else out[key] = field
  }
  return out as T
}

class ConstraintError extends Error {
  constructor(constraint: string) {
    super(`unique constraint violated: ${constraint}`)
    this.name = "ConstraintError"
  }
}

export function MemoryAdapter(): MemoryAdapterInstance {
  const store: Store = { users: new Map(), accounts: new Map(), sessions: new Map(), tokens: new Map(), authenticators: new Map(), twoFactor: new Map(), recoveryCodes: new Map(), passwords: new Map(), cookieSessions: new Map(), sessionRevocations: new Map(), organizations: new Map(), members: new Map(), invitations: new Map(), ssoConnections: new Map(), domains: new Map(), scimTokens: new Map(), scimUsers: new Map(), scimGroups: new Map(), userBans: new Map(), apiKeys: new Map(), oidcRecords: new Map() }
  const byEmail = (email: string) => [...store.users.values()].find((user) => email !== "" && user.email === email)
  const lockUser = userLocks()
  const organizations = organizationMethods(store, put, remove)

  const adapter: MemoryAdapterInstance = {
    get store() {
      return store
    },

    async createUser(user) {
      if (user.email && byEmail(user.email)) throw new ConstraintError("users.email")
      const id = user.id ?? randomUUID()
      if (store.users.has(id)) throw new ConstraintError("users.id")
      const stored: AdapterUser = { ...copy(user), id, email: user.email ?? "", emailVerified: user.emailVerified ?? null }
      put(store.users, id, stored)
      return copy(stored)
    },
    async getUser(id) {
      const user = store.users.get(id)
      return user ? copy(user) : null
    },
    async getUserByEmail(email) {
      const user = byEmail(email)
      return user ? copy(user) : null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = store.accounts.get(accountKey(provider, providerAccountId))
      const user = account && store.users.get(account.userId)
      return user ? copy(user) : null
    },
    async updateUser(update) {
      const current = store.users.get(update.id)
      if (!current) throw new Error(`no user with id ${update.id}`)
      if (update.email && update.email !== current.email && byEmail(update.email)) throw new ConstraintError("users.email")
      const next = { ...current, ...copy(update) }
      put(store.users, update.id, next)
      return copy(next)
    },
    async deleteUser(id) {
      const user = store.users.get(id)
      if (!user) return null
      remove(store.users, id)
      for (const [key, account] of store.accounts) if (account.userId === id) remove(store.accounts, key)
      for (const [key, session] of store.sessions) if (session.userId === id) remove(store.sessions, key)
      for (const [key, authenticator] of store.authenticators) if (authenticator.userId === id) remove(store.authenticators, key)
      // Sign-in links (and codes) still out for the user's address die with the user.
      for (const [key, token] of store.tokens) if (token.identifier === user.email) remove(store.tokens, key)
      forgetTwoFactor(store, remove, id)
      remove(store.passwords, id)
      forgetMemberships(store, remove, id)
      // Provisioned (SCIM) records, and group memberships, of every organization.
      forgetScimUser(store, put, remove, id)
      forgetUserBan(store, remove, id)
      // The user's own API keys; organization keys they made stay (createdBy is only a record).
      forgetUserApiKeys(store, remove, id)
      // What the identity provider (issue #32) kept about the user: sessions, grants, tokens, codes.
      forgetUserOidcRecords(store, remove, id)
      return copy(user)
    },

    async linkAccount(account) {
      const key = accountKey(account.provider, account.providerAccountId)
      if (store.accounts.has(key)) throw new ConstraintError("accounts.provider_provider_account_id")
      if (!store.users.has(account.userId)) throw new Error(`no user with id ${account.userId}`)
      put(store.accounts, key, copy(account))
      return copy(account)
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId)
      const account = store.accounts.get(key)
      remove(store.accounts, key)
      return account ? copy(account) : undefined
    },
    async getAccount(providerAccountId, provider) {
      const account = store.accounts.get(accountKey(provider, providerAccountId))
      return account ? copy(account) : null
    },
    async listAccountsByUserId(userId) {
      return [...store.accounts.values()].filter((account) => account.userId === userId).map(copy)
    },
    async updateAccountTokens({ provider, providerAccountId }, tokens) {
      const key = accountKey(provider, providerAccountId)
      const account = store.accounts.get(key)
      if (!account) return null
      const updated: Record<string, unknown> = { ...account }
      for (const [field, value] of Object.entries(tokens)) {
        if (value === null) delete updated[field]
        else if (value !== undefined) updated[field] = value
      }
      put(store.accounts, key, copy(updated as unknown as AdapterAccount))
      return copy(updated as unknown as AdapterAccount)
    },

    async createSession(session) {
      if (store.sessions.has(session.sessionToken)) throw new ConstraintError("sessions.session_token")
      if (!store.users.has(session.userId)) throw new Error(`no user with id ${session.userId}`)
      put(store.sessions, session.sessionToken, copy(session))
      return copy(session)
    },
    async getSessionAndUser(sessionToken) {
      const session = store.sessions.get(sessionToken)
      const user = session && store.users.get(session.userId)
      if (!session || !user) return null
      // As the SQL adapter: the Auth.js-facing shape, plus when the session started. The client's
      // address and user agent stay with listSessionsByUserId: an Auth.js `session` callback that
      // spreads this session must not send them to the browser (issue #26).
      const { userAgent: _userAgent, ip: _ip, lastSeenAt: _lastSeenAt, ...shown } = copy(session)
      return { session: shown, user: copy(user) }
    },
    async updateSession(update) {
      const current = store.sessions.get(update.sessionToken)
      if (!current) return null
      const next = { ...current, ...copy(update) }
      put(store.sessions, update.sessionToken, next)
      return copy(next)
    },
    async deleteSession(sessionToken) {
      const session = store.sessions.get(sessionToken)
      remove(store.sessions, sessionToken)
      return session ? copy(session) : null
    },
    async listSessionsByUserId(userId) {
      return [...store.sessions.values()].filter((session) => session.userId === userId).map(copy)
    },
    async deleteSessionsByUserId(userId, options) {
      let deleted = 0
      for (const [key, session] of store.sessions) {
        if (session.userId !== userId || key === options?.except) continue
        remove(store.sessions, key)
        deleted++
      }
      return deleted
    },

    async createVerificationToken(token) {
      put(store.tokens, tokenKey(token.identifier, token.token), copy(token))
      return copy(token)
    },
    async useVerificationToken({ identifier, token }) {
      // Synchronous between lookup and delete: of concurrent callers, exactly one gets the token.
      const key = tokenKey(identifier, token)
      const found = store.tokens.get(key)
      remove(store.tokens, key)
      return found ? copy(found) : null
    },

    async getAuthenticator(credentialID) {
      const authenticator = store.authenticators.get(credentialID)
      return authenticator ? copy(authenticator) : null
    },
    async createAuthenticator(authenticator) {
      if (store.authenticators.has(authenticator.credentialID)) throw new ConstraintError("authenticators.credential_id")
      put(store.authenticators, authenticator.credentialID, copy(authenticator))
      return copy(authenticator)
    },
    async listAuthenticatorsByUserId(userId) {
      return [...store.authenticators.values()].filter((authenticator) => authenticator.userId === userId).map(copy)
    },
    async deleteAuthenticator(credentialID) {
      const found = store.authenticators.get(credentialID)
      if (!found) return null
      remove(store.authenticators, credentialID)
      return copy(found)
    },
    async updateAuthenticatorCounter(credentialID, counter) {
      const current = store.authenticators.get(credentialID)
      if (!current) throw new Error(`no authenticator ${credentialID}`)
      // Never lowered: a slower request with an older counter must not undo a newer one.
      const next = { ...current, counter: Math.max(current.counter, counter) }
      put(store.authenticators, credentialID, next)
      return copy(next)
    },
    lockUser,
    async updateAuthenticator(credentialID, update) {
      const current = store.authenticators.get(credentialID)
      if (!current) return null
      const next = { ...current }
      if (update.name !== undefined) next.name = update.name
      if (update.lastUsedAt !== undefined) next.lastUsedAt = update.lastUsedAt ? new Date(update.lastUsedAt.getTime()) : null
      if (update.counter !== undefined) next.counter = Math.max(current.counter, update.counter)
      put(store.authenticators, credentialID, next)
      return copy(next)
    },

    ...twoFactorMethods(store, put, remove),
    ...cookieSessionMethods(store, put, remove),

    ...passwordMethods(store, put, remove),
    ...organizations,
    async deleteOrganization(id) {
      // Its API keys (issue #31) go with it. Both steps run without awaiting in between (the
      // organization's have no await before they finish), so no one sees one done without the other.
      forgetOrganizationApiKeys(store, remove, id)
      await organizations.deleteOrganization(id)
    },
    ...ssoMethods(store, put, remove),
    ...scimMethods(store, put, remove),
    ...adminMethods(store, put, remove),
    ...apiKeyMethods(store, put, remove),
    ...oidcRecordMethods(store, put, remove),

    transaction: (work) => inTransaction(adapter, work),
  }
  Object.defineProperty(adapter, DEVELOPMENT_ADAPTER, { value: true })
  return adapter
}

export default MemoryAdapter
