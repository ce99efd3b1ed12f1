/**
 * The memory adapter's transactions and user locks. Every write goes through `put`/`remove`,
 * which record it in the transaction the async call chain runs in (if any), so a failed
 * transaction undoes its own writes, newest first (an entry someone else changed since is left as
 * they set it). Writes are visible to others before the transaction ends (read uncommitted).
 * `lockUser` makes the transactions that lock the same user run one after another (issue #24).
 */
import { AsyncLocalStorage } from "node:async_hooks"

/** A write made inside a transaction: which entry, what it held before and what it was set to. */
interface Write {
  map: Map<string, unknown>
  key: string
  before: unknown
  after: unknown
}

/** A transaction: its writes (undone if it fails) and the users it holds (`lockUser`, released when it ends). */
interface Transaction {
  writes: Write[]
  held: Map<string, () => void>
}

/** The transaction the current async call chain runs in, if any. */
const transactions = new AsyncLocalStorage<Transaction>()

function rollBack(writes: Write[]): void {
  for (const { map, key, before, after } of writes.reverse()) {
    if (map.get(key) !== after) continue
    if (before === undefined) map.delete(key)
    else map.set(key, before)
  }
}

export function put<V>(map: Map<string, V>, key: string, value: V): void {
  transactions.getStore()?.writes.push({ map: map as Map<string, unknown>, key, before: map.get(key), after: value })
  map.set(key, value)
}

export function remove<V>(map: Map<string, V>, key: string): void {
  if (!map.has(key)) return
  transactions.getStore()?.writes.push({ map: map as Map<string, unknown>, key, before: map.get(key), after: undefined })
  map.delete(key)
}

/**
 * All or nothing: on failure, the writes made by `work` (and whatever it awaits) are undone.
 * A nested call joins the outer transaction. The users it locked are released when it ends.
 */
export async function inTransaction<A, T>(adapter: A, work: (tx: A) => Promise<T>): Promise<T> {
  if (transactions.getStore()) return work(adapter)
  const transaction: Transaction = { writes: [], held: new Map() }
  try {
    return await transactions.run(transaction, () => work(adapter))
  } catch (error) {
    rollBack(transaction.writes)
    throw error
  } finally {
    for (const release of transaction.held.values()) release()
  }
}

/**
 * One adapter's `lockUser`: inside a transaction, waits for the transaction holding the user,
 * then holds it until this one ends (outside one, nothing to hold).
 */
export function userLocks(): (userId: string) => Promise<void> {
  /** Per user, the hold that the next `lockUser` waits for (the last one taken). */
  const userHolds = new Map<string, Promise<void>>()
  return async (userId) => {
    const transaction = transactions.getStore()
    if (!transaction || transaction.held.has(userId)) return
    const before = userHolds.get(userId) ?? Promise.resolve()
    let release = () => {}
    const mine = new Promise<void>((resolve) => {
      release = () => resolve()
    })
    userHolds.set(userId, mine)
    transaction.held.set(userId, () => {
      release()
      if (userHolds.get(userId) === mine) userHolds.delete(userId)
    })
    await before
  }
}
