/**
 * Whether the server can run multi-document transactions, and running work in one.
 *
 * MongoDB runs transactions only on a replica set member or through mongos (a sharded cluster);
 * a standalone `mongod` refuses them ("Transaction numbers are only allowed on a replica set
 * member or mongos"). The adapter asks once, with `hello`, and remembers the answer.
 */
import type { ClientSession, Db, Document, MongoClient } from "mongodb"
import type { Adapter } from "../../lib/adapters.js"

/** From a `hello` (or legacy `isMaster`) reply: a replica set member has `setName`; mongos says `isdbgrid`. */
export function transactionsSupported(reply: Document): boolean {
  return typeof reply.setName === "string" || reply.msg === "isdbgrid"
}

/** Asks the server. `hello` exists from MongoDB 4.4.2; earlier 4.4 releases answer `isMaster`. */
export async function supportsTransactions(db: Db): Promise<boolean> {
  let reply: Document
  try {
    reply = await db.command({ hello: 1 })
  } catch {
    reply = await db.command({ isMaster: 1 })
  }
  return transactionsSupported(reply)
}

/**
 * Runs `work` in a driver transaction: `withTransaction` commits when `work` resolves and aborts
 * when it rejects (and rethrows). On a transient error the driver runs `work` again, so `work`
 * must not have effects outside the session. The session is ended either way.
 */
export async function inTransaction<T>(client: MongoClient, work: (session: ClientSession) => Promise<T>): Promise<T> {
  const session = client.startSession()
  try {
    return await session.withTransaction((bound) => work(bound))
  } finally {
    await session.endSession()
  }
}

/**
 * Runs `work` directly, for a server without transactions, and undoes what it can when `work`
 * fails: every user `work` created is deleted again (with its accounts, sessions and
 * authenticators), best effort, and the original error is rethrown. This is the compensation
 * Gatehouse applies itself to adapters without `transaction()`: a failed sign-in leaves no user
 * without its account. It is not isolation: until the delete, others can see the user.
 */
export async function compensating<A extends Adapter, T>(adapter: A, work: (adapter: Adapter) => Promise<T>): Promise<T> {
  const created: string[] = []
  const recording: Adapter = {
    ...adapter,
    async createUser(user) {
      const stored = await adapter.createUser!(user)
      created.push(stored.id)
      return stored
    },
  }
  try {
    return await work(recording)
  } catch (error) {
    for (const id of created.reverse()) await Promise.resolve(adapter.deleteUser?.(id)).catch(() => undefined)
    throw error
  }
}
