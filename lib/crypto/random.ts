import { randomBytes, randomUUID } from "node:crypto"

/**
 * Random bytes are drawn from the CSPRNG 4 kB at a time and handed out in slices (as Node does for
 * `randomUUID`): one call into OpenSSL per ~100 tokens instead of one per token. Each refill is a
 * new buffer, so a slice handed out is never overwritten.
 */
const POOL_SIZE = 4096
let pool = Buffer.alloc(0)
let offset = 0

/** `bytes` fresh random bytes (a view; copy it if you keep it beyond the request). */
export function randomSlice(bytes: number): Buffer {
  if (bytes > POOL_SIZE / 4) return randomBytes(bytes)
  if (offset + bytes > pool.length) {
    pool = randomBytes(POOL_SIZE)
    offset = 0
  }
  const slice = pool.subarray(offset, offset + bytes)
  offset += bytes
  return slice
}

/** `bytes` random bytes from the CSPRNG, as lower-case hex (twice as many characters). */
export function randomHex(bytes = 32): string {
  return randomSlice(bytes).toString("hex")
}

export { randomUUID }
