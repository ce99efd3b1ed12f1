/**
 * `gatehouse/adapters/mongodb`: the adapter on the official `mongodb` driver (a dependency of your
 * app: `npm install mongodb`).
 *
 *   const client = new MongoClient(process.env.MONGODB_URI)   // or a Promise of one
 *   await setupIndexes(client.db())                            // once, like a migration
 *   app.use("/auth", authRouter({ adapter: MongoDBAdapter(client), providers: [...] }))
 *
 * Documents: users have an ObjectId `_id`, which records carry as `id` (24 lowercase hex
 * characters); accounts, sessions and authenticators point to their user with an ObjectId
 * `userId`. An id string that is not an ObjectId is an error (TypeError), never coerced. Dates
 * are BSON dates; tokens, ids and emails are compared exactly (the simple binary collation: do
 * not give these collections another default collation).
 *
 * - `useVerificationToken` is one `findOneAndDelete`: of concurrent callers, exactly one gets it.
 * - `deleteUser` removes the user's accounts, sessions and authenticators too (in one
 *   transaction where the server runs transactions).
 * - `transaction(work)` runs `work` in a driver transaction on a replica set or sharded cluster.
 *   A standalone server cannot run transactions: there `work` runs directly, and if it fails,
 *   the users it created are deleted again (with their accounts, sessions and authenticators),
 *   the same compensation Gatehouse applies to adapters without `transaction`. Other sign-ins
 *   can then briefly see the user before it is removed.
 * - The uniqueness rules (one user per email, ...) are indexes: run `setupIndexes` first.
 *
 * The client is resolved (and the collection handles created) on first use, not at
 * construction; the driver connects on the first operation.
 */
import type { MongoClient } from "mongodb"
import { build, once, type MongoDBAdapterInstance, type Shared } from "./adapter.js"
import { collectionNames, openHandles, type CollectionOptions } from "./collections.js"
import { supportsTransactions } from "./transactions.js"

export interface MongoDBAdapterOptions extends CollectionOptions {
  /** The database; by default the one named in the connection string (else `test`, the driver's default). */
  databaseName?: string
}

/**
 * The adapter. `client` is a MongoClient or a Promise of one, awaited on first use (if the
 * promise rejects, the adapter's calls fail with its error). See the module comment for what is
 * stored and how.
 */
export function MongoDBAdapter(client: MongoClient | Promise<MongoClient>, options: MongoDBAdapterOptions = {}): MongoDBAdapterInstance {
  const names = collectionNames(options)
  // Marks a rejected promise as handled until first use (Node would otherwise end the process);
  // the rejection still reaches the first adapter call.
  Promise.resolve(client).catch(() => undefined)
  const handles = once(async () => openHandles(await client, options.databaseName, names))
  const shared: Shared = {
    handles,
    transactions: once(async () => supportsTransactions((await handles()).db)),
  }
  return build(shared)
}

export { setupIndexes, indexSpecs, DEFAULT_COLLECTIONS, type CollectionNames, type CollectionOptions } from "./collections.js"
export { format, from, fromRecord, fromUser, to, toObjectId, isObjectIdHex } from "./convert.js"
export { supportsTransactions } from "./transactions.js"
export type { MongoDBAdapterInstance } from "./adapter.js"

export default MongoDBAdapter
