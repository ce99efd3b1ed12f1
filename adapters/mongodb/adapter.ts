/**
 * The adapter's methods, over collection handles shared by every adapter of one
 * `MongoDBAdapter()` call; `build(shared, session)` gives the ones bound to a transaction.
 */
import { ObjectId, type ClientSession } from "mongodb"
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterSession, VerificationToken } from "../../lib/adapters.js"
import type { SessionMessageMethod, TransactionalAdapter } from "../../lib/core/adapter.js"
import type { Handles } from "./collections.js"
import { fromRecord, fromUser, isObjectIdHex, key, to, toObjectId } from "./convert.js"
import { compensating, inTransaction } from "./transactions.js"
import { twoFactorMethods } from "./two-factor.js"
import { passwordMethods } from "./passwords.js"
import { cookieSessionMethods } from "./cookie-sessions.js"
import { organizationMethods } from "./organizations.js"
import { ssoMethods } from "./sso.js"
import { pullScimMember, scimMethods } from "./scim.js"
import { adminMethods } from "./admin.js"
import { apiKeyMethods } from "./api-keys.js"
import { oidcRecordMethods } from "./identity-provider.js"

/**
 * Without `lockUser`: Gatehouse serialises removing a user's ways in per process (lib/account/per-user.ts).
 * Without the session messages (issue #36): processes sharing MongoDB rely on the caches' one-second bound.
 */
export interface MongoDBAdapterInstance extends Required<Omit<TransactionalAdapter, "transaction" | "lockUser" | SessionMessageMethod>>, Pick<Adapter, SessionMessageMethod> {
  transaction<T>(work: (adapter: Adapter) => Promise<T>): Promise<T>
}

/** What every adapter of one `MongoDBAdapter()` call shares: the handles and the server's abilities, each found once. */
export interface Shared {
  handles(): Promise<Handles>
  transactions(): Promise<boolean>
}

/** Memoises an async value; a failure is not remembered, so the next call tries again. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined
      throw error
    }))
}

export function build(shared: Shared, session?: ClientSession): MongoDBAdapterInstance {
  // Every operation of a transaction-bound adapter carries its session; the others carry none.
  const opts = session ? { session } : {}
  const handles = shared.handles
  const userExists = async (userId: string) => {
    const { users } = await handles()
    if (!(await users.findOne({ _id: toObjectId(userId) }, { ...opts, projection: { _id: 1 } }))) throw new Error(`no user with id ${userId}`)
  }
  /** `work` in one transaction where the server has them (or in the one this adapter is bound to). */
  const atomically = async <T>(work: (options: { session?: ClientSession }) => Promise<T>): Promise<T> => {
    if (session || !(await shared.transactions())) return work(opts)
    const { client } = await handles()
    return inTransaction(client, (bound) => work({ session: bound }))
  }
  const organizations = organizationMethods(handles, opts, atomically)

  const adapter: MongoDBAdapterInstance = {
    async createUser(user) {
      // MongoDB ids are ObjectIds: the given id is kept when it is one (24 lowercase hex
      // characters), otherwise (a UUID, a provider's profile id...) the user gets a new ObjectId.
      const id = isObjectIdHex(user.id) ? user.id : new ObjectId().toHexString()
      const document = to({ ...user, id })
      // No email is stored rather than "": users without one must not collide on the unique index.
      if (!document.email) delete document.email
      await (await handles()).users.insertOne(document, opts)
      return fromUser(document)
    },
    async getUser(id) {
      // An id that cannot be an ObjectId belongs to no user: not found (a write with one is refused).
      if (!isObjectIdHex(key(id, "id"))) return null
      const _id = toObjectId(id)
      const found = await (await handles()).users.findOne({ _id }, opts)
      return found ? fromUser(found) : null
    },
    async getUserByEmail(email) {
      if (key(email, "email") === "") return null
      // `$type` repeats the unique index's partial filter, so the query planner can use it.
      const found = await (await handles()).users.findOne({ email: { $eq: email, $type: "string" } }, opts)
      return found ? fromUser(found) : null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const filter = { provider: key(provider, "provider"), providerAccountId: key(providerAccountId, "providerAccountId") }
      const { accounts, users } = await handles()
      const account = await accounts.findOne(filter, opts)
      const found = account && (await users.findOne({ _id: account.userId }, opts))
      return found ? fromUser(found) : null
    },
    async updateUser(user) {
      const _id = toObjectId(user.id)
      const { id: _ignored, ...fields } = user
      const $set = to(fields)
      const update: Record<string, unknown> = {}
      if ("email" in $set && !$set.email) {
        delete $set.email
        update.$unset = { email: "" }
      }
      if (Object.keys($set).length) update.$set = $set
      const { users } = await handles()
      const updated = Object.keys(update).length
        ? await users.findOneAndUpdate({ _id }, update, { ...opts, returnDocument: "after" })
        : await users.findOne({ _id }, opts)
      if (!updated) throw new Error(`updateUser: no user with id ${user.id}`)
      return fromUser(updated)
    },
    async deleteUser(id) {
      const _id = toObjectId(id)
      const { users, accounts, sessions, authenticators, twoFactor, recoveryCodes, passwords, verificationTokens, members, scimUsers, scimGroups, userBans, apiKeys, oidcRecords } = await handles()
      // One after the other: operations of a transaction must not run in parallel. The user goes
      // last, so if a step fails, deleteUser can simply be called again.
      return atomically(async (options) => {
        // API keys: the user's own; organization keys they made stay (createdBy is only a record).
        for (const collection of [accounts, sessions, authenticators, members, scimUsers, apiKeys]) await collection.deleteMany({ userId: _id }, options)
        // Out of every SCIM group (their members are user ids as strings).
        await pullScimMember(scimGroups, id, options)
        await recoveryCodes.deleteMany({ userId: id }, options)
        await twoFactor.deleteOne({ _id: id as never }, options)
        await passwords.deleteOne({ _id: id as never }, options)
        await userBans.deleteOne({ _id }, options)
        // What the identity provider (issue #32) kept about the user (its accountId is the id string).
        await oidcRecords.deleteMany({ accountId: id }, options)
        const deleted = await users.findOneAndDelete({ _id }, options)
        // Sign-in links (and codes) still out for the user's address die with the user.
        if (typeof deleted?.email === "string") await verificationTokens.deleteMany({ identifier: deleted.email }, options)
        return deleted ? fromUser(deleted) : null
      })
    },

    async linkAccount(account) {
      const document = to({ ...account })
      await userExists(account.userId)
      await (await handles()).accounts.insertOne(document, opts)
      return { ...account }
    },
    async unlinkAccount({ provider, providerAccountId }) {
      const filter = { provider: key(provider, "provider"), providerAccountId: key(providerAccountId, "providerAccountId") }
      const deleted = await (await handles()).accounts.findOneAndDelete(filter, opts)
      return deleted ? fromRecord<AdapterAccount>(deleted) : undefined
    },
    async getAccount(providerAccountId, provider) {
      const filter = { provider: key(provider, "provider"), providerAccountId: key(providerAccountId, "providerAccountId") }
      const found = await (await handles()).accounts.findOne(filter, opts)
      return found ? fromRecord<AdapterAccount>(found) : null
    },
    async updateAccountTokens({ provider, providerAccountId }, tokens) {
      const filter = { provider: key(provider, "provider"), providerAccountId: key(providerAccountId, "providerAccountId") }
      const $set: Record<string, unknown> = {}
      const $unset: Record<string, ""> = {}
      for (const [field, value] of Object.entries(tokens)) {
        if (value === null) $unset[field] = ""
        else if (value !== undefined) $set[field] = value
      }
      const update = { ...(Object.keys($set).length && { $set }), ...(Object.keys($unset).length && { $unset }) }
      const { accounts } = await handles()
      const found = Object.keys(update).length ? await accounts.findOneAndUpdate(filter, update, { ...opts, returnDocument: "after" }) : await accounts.findOne(filter, opts)
      return found ? fromRecord<AdapterAccount>(found) : null
    },
    async listAccountsByUserId(userId) {
      if (!isObjectIdHex(key(userId, "userId"))) return []
      const found = await (await handles()).accounts.find({ userId: toObjectId(userId) }, opts).toArray()
      return found.map((document) => fromRecord<AdapterAccount>(document))
    },

    async createSession(session) {
      const document = to({ ...session, sessionToken: key(session.sessionToken, "sessionToken") })
      await userExists(session.userId)
      await (await handles()).sessions.insertOne(document, opts)
      return { ...session }
    },
    async getSessionAndUser(sessionToken) {
      const filter = { sessionToken: key(sessionToken, "sessionToken") }
      const { sessions, users } = await handles()
      const session = await sessions.findOne(filter, opts)
      const user = session && (await users.findOne({ _id: session.userId }, opts))
      return session && user ? { session: fromRecord<AdapterSession>(session), user: fromUser(user) } : null
    },
    async updateSession(session) {
      const { sessionToken, ...fields } = session
      const filter = { sessionToken: key(sessionToken, "sessionToken") }
      const $set = to(fields)
      const { sessions } = await handles()
      const updated = Object.keys($set).length
        ? await sessions.findOneAndUpdate(filter, { $set }, { ...opts, returnDocument: "after" })
        : await sessions.findOne(filter, opts)
      return updated ? fromRecord<AdapterSession>(updated) : null
    },
    async deleteSession(sessionToken) {
      const filter = { sessionToken: key(sessionToken, "sessionToken") }
      const deleted = await (await handles()).sessions.findOneAndDelete(filter, opts)
      return deleted ? fromRecord<AdapterSession>(deleted) : null
    },
    async listSessionsByUserId(userId) {
      if (!isObjectIdHex(userId)) return []
      const found = await (await handles()).sessions.find({ userId: toObjectId(userId) }, opts).toArray()
      return found.map((document) => fromRecord<AdapterSession>(document))
    },
    async deleteSessionsByUserId(userId, options) {
      if (!isObjectIdHex(userId)) return 0
      const filter: Record<string, unknown> = { userId: toObjectId(userId) }
      if (options?.except !== undefined) filter.sessionToken = { $ne: key(options.except, "sessionToken") }
      const { deletedCount } = await (await handles()).sessions.deleteMany(filter, opts)
      return deletedCount
    },

    async createVerificationToken(token) {
      const document = to({ ...token, identifier: key(token.identifier, "identifier"), token: key(token.token, "token") })
      await (await handles()).verificationTokens.insertOne(document, opts)
      return { ...token }
    },
    async useVerificationToken({ identifier, token }) {
      // One atomic operation: of concurrent callers, exactly one gets the document.
      const filter = { identifier: key(identifier, "identifier"), token: key(token, "token") }
      const used = await (await handles()).verificationTokens.findOneAndDelete(filter, opts)
      return used ? fromRecord<VerificationToken>(used) : null
    },

    async getAuthenticator(credentialID) {
      const filter = { credentialID: key(credentialID, "credentialID") }
      const found = await (await handles()).authenticators.findOne(filter, opts)
      return found ? fromRecord<AdapterAuthenticator>(found) : null
    },
    async createAuthenticator(authenticator) {
      const document = to({ ...authenticator, credentialID: key(authenticator.credentialID, "credentialID") })
      await userExists(authenticator.userId)
      await (await handles()).authenticators.insertOne(document, opts)
      return { ...authenticator }
    },
    async listAuthenticatorsByUserId(userId) {
      if (!isObjectIdHex(key(userId, "userId"))) return []
      const filter = { userId: toObjectId(userId) }
      const found = await (await handles()).authenticators.find(filter, opts).toArray()
      return found.map((document) => fromRecord<AdapterAuthenticator>(document))
    },
    async deleteAuthenticator(credentialID) {
      const deleted = await (await handles()).authenticators.findOneAndDelete({ credentialID: key(credentialID, "credentialID") }, opts)
      return deleted ? fromRecord<AdapterAuthenticator>(deleted) : null
    },
    async updateAuthenticatorCounter(credentialID, counter) {
      const filter = { credentialID: key(credentialID, "credentialID") }
      const updated = await (await handles()).authenticators.findOneAndUpdate(filter, { $max: { counter } }, { ...opts, returnDocument: "after" })
      if (!updated) throw new Error(`updateAuthenticatorCounter: no authenticator ${credentialID}`)
      return fromRecord<AdapterAuthenticator>(updated)
    },
    async updateAuthenticator(credentialID, update) {
      const filter = { credentialID: key(credentialID, "credentialID") }
      const set: Record<string, unknown> = {}
      if (update.name !== undefined) set.name = update.name
      if (update.lastUsedAt !== undefined) set.lastUsedAt = update.lastUsedAt
      // One atomic update: the details set, the counter never lowered.
      const changes = { ...(Object.keys(set).length && { $set: set }), ...(update.counter !== undefined && { $max: { counter: update.counter } }) }
      const authenticators = (await handles()).authenticators
      const updated = Object.keys(changes).length
        ? await authenticators.findOneAndUpdate(filter, changes, { ...opts, returnDocument: "after" })
        : await authenticators.findOne(filter, opts)
      return updated ? fromRecord<AdapterAuthenticator>(updated) : null
    },

    ...twoFactorMethods(handles, opts, atomically),
    ...passwordMethods(handles, opts),
    ...cookieSessionMethods(handles, opts),
    ...organizations,
    async deleteOrganization(id) {
      // Its API keys (issue #31) go with it: in the organization's transaction where the server has
      // them; otherwise first, the organization last, so after a failed step the call can be repeated.
      if (!session && (await shared.transactions())) {
        const { client } = await handles()
        return inTransaction(client, async (bound) => {
          await build(shared, bound).deleteOrganization(id)
        })
      }
      await (await handles()).apiKeys.deleteMany({ organizationId: key(id, "id") }, opts)
      await organizations.deleteOrganization(id)
    },
    ...ssoMethods(handles, opts),
    ...scimMethods(handles, opts, atomically),
    ...adminMethods(handles, opts),
    ...apiKeyMethods(handles, opts),
    ...oidcRecordMethods(handles, opts),

    async transaction(work) {
      if (session) return work(adapter)
      if (await shared.transactions()) {
        const { client } = await handles()
        return inTransaction(client, (bound) => work(build(shared, bound)))
      }
      return compensating(adapter, work)
    },
  }
  return adapter
}
