/**
 * Work on one user's ways to sign in, one at a time per user (issue #24): a check such as "not
 * the last way in" and the removal it allows must not interleave with another removal, or two
 * removals at the same moment both pass the check and leave the user with no way in.
 *
 * - An adapter with `transaction` and `lockUser` (memory, SQL): the work runs in a transaction
 *   that first locks the user (PostgreSQL and MariaDB/MySQL: a row lock on the user; SQLite: the
 *   write lock; memory: a queue per user). Every process sharing the database waits its turn.
 * - Any other adapter (MongoDB, Auth.js adapters): the work waits for this process's earlier work
 *   on the same user; processes do not wait for each other.
 */
import type { Adapter } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { TransactionalAdapter } from "../core/adapter.js"
import { accountAdapter, type FullAdapter } from "./user.js"

/** Per configuration (one app), the tail of each user's queue. */
const queues = new WeakMap<ResolvedConfig, Map<string, Promise<unknown>>>()

async function inProcessTurn<T>(config: ResolvedConfig, userId: string, work: () => Promise<T>): Promise<T> {
  let byUser = queues.get(config)
  if (!byUser) queues.set(config, (byUser = new Map()))
  const before = byUser.get(userId) ?? Promise.resolve()
  const mine = before.then(work, work)
  const tail = mine.catch(() => undefined)
  byUser.set(userId, tail)
  try {
    return await mine
  } finally {
    if (byUser.get(userId) === tail) byUser.delete(userId)
  }
}

/** Runs `work` with the adapter to use, alone among the works on `userId`'s ways in (see above). */
export async function withUserHeld<T>(config: ResolvedConfig, userId: string, work: (adapter: FullAdapter) => Promise<T>): Promise<T> {
  const adapter = accountAdapter(config) as TransactionalAdapter
  if (typeof adapter.transaction === "function" && typeof adapter.lockUser === "function") {
    return adapter.transaction(async (bound: Adapter) => {
      await bound.lockUser?.(userId)
      return work(bound as FullAdapter)
    })
  }
  return inProcessTurn(config, userId, () => work(adapter as FullAdapter))
}
