/**
 * Contract check for `lockUser` (Gatehouse extension, issue #24): inside `transaction`, it holds
 * the user until the transaction ends, so a second transaction locking the same user waits for
 * the first to end. (Removing a way to sign in checks "not the last one" under it.) An adapter
 * without `lockUser` leaves this check out with `skip` and a reason; Gatehouse then serialises
 * those removals within each process only.
 */
import { expect } from "@jest/globals"
import { newUser, type ContractContext } from "./fixtures.js"

export const USER_LOCK_CHECK = "lockUser in a transaction holds the user until it ends: a second transaction locking the same user waits"

export function userLockChecks({ adapter, check }: ContractContext): void {
  check(USER_LOCK_CHECK, async () => {
    const user = await adapter().createUser(newUser())
    const transaction = adapter().transaction
    expect(typeof transaction).toBe("function")
    const order: string[] = []
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = () => resolve()
    })
    let announceLocked = () => {}
    const locked = new Promise<void>((resolve) => {
      announceLocked = () => resolve()
    })
    const first = transaction!.call(adapter(), async (bound) => {
      await bound.lockUser?.(user.id)
      announceLocked()
      await held
      order.push("first ends")
    })
    await locked
    const second = transaction!.call(adapter(), async (bound) => {
      await bound.lockUser?.(user.id)
      order.push("second holds the user")
    })
    // The second has every chance to get through a lock that does not hold.
    await new Promise((resolve) => setTimeout(resolve, 300))
    order.push("first released")
    release()
    await Promise.all([first, second])
    expect(order).toEqual(["first released", "first ends", "second holds the user"])
  })
}
