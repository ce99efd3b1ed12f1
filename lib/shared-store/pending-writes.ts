/**
 * Revocations (and their announcements and record removals) that the shared store did not take,
 * kept in this process in order and written again in the background every `RETRY_MS` until the
 * store takes them all, so a revocation made while the store is down is never acknowledged and
 * lost. The caller has already applied it in this process (which refuses the sessions meanwhile).
 * Each write is idempotent (a revocation set twice, a "not before" that never moves back), so one
 * written late, or twice, changes nothing. Bounded: past `MAX_PENDING` writes, a new one is
 * refused (`StoreUnavailable`) rather than an old one dropped. The timer does not keep the
 * process alive: writes still pending when the process ends are lost, which is why the actions
 * that must be durable answer `RevocationPending` instead of success.
 */
import { StoreUnavailable } from "../errors.js"

export const RETRY_MS = 1000
export const MAX_PENDING = 10_000

export type Write = () => Promise<unknown>

export class PendingWrites {
  readonly #writes: Write[] = []
  #timer: NodeJS.Timeout | undefined
  #flushing: Promise<void> | undefined

  /** `retry`: called every `RETRY_MS` while writes are pending (it should call `flush`). */
  constructor(private readonly retry: () => void) {}

  get size(): number {
    return this.#writes.length
  }

  add(write: Write): void {
    if (this.#writes.length >= MAX_PENDING) throw new StoreUnavailable(`The shared store has not answered for ${MAX_PENDING} revocations; this one is applied in this process only`)
    this.#writes.push(write)
    this.#schedule()
  }

  /**
   * Writes the pending writes in order, each through `run` (a timeout); resolves when none is
   * left, rejects with the first failure (the rest stay, and a retry is scheduled). One at a time.
   */
  flush(run: (write: Write) => Promise<unknown>): Promise<void> {
    if (this.#flushing) return this.#flushing
    this.#flushing = (async () => {
      while (this.#writes.length) {
        await run(this.#writes[0] as Write)
        this.#writes.shift()
      }
    })().finally(() => {
      this.#flushing = undefined
      this.#schedule()
    })
    return this.#flushing
  }

  #schedule(): void {
    if (this.#timer || !this.#writes.length) return
    this.#timer = setTimeout(() => {
      this.#timer = undefined
      this.retry()
      this.#schedule()
    }, RETRY_MS)
    this.#timer.unref()
  }
}

/** `write()`, failed after `ms` if it has not answered. */
export function within(ms: number, write: Write): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([Promise.resolve().then(write), timeout]).finally(() => clearTimeout(timer))
}
