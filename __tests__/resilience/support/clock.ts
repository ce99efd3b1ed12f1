/**
 * Moves only `Date` (frozen at the new time): servers, sockets, timeouts and `performance.now()`
 * keep real time, so caches that read `Date.now()` see the time pass while the network does not.
 * Undo with `jest.useRealTimers()`.
 */
import { jest } from "@jest/globals"

export function shiftClock(ms: number): void {
  const now = Date.now()
  jest.useFakeTimers({ doNotFake: ["hrtime", "nextTick", "performance", "queueMicrotask", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"], now: now + ms })
}
