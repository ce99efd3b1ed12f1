/**
 * The limits on calls to a provider (discovery, JWKS, token, userinfo): a provider's `outbound`
 * option, checked at start-up, merged over the defaults. Every response body is read up to
 * `maxResponseSize` bytes; a connection must open within `connectTimeout` ms and the whole call
 * (connect, request, every byte of the answer) end within `timeout` ms.
 */
import { InvalidOption } from "../errors.js"

export interface OutboundOptions {
  /** Bytes of a response body read at most. Default 1 MiB. */
  maxResponseSize?: number
  /** Milliseconds to open the connection. Default 5 000. */
  connectTimeout?: number
  /** Milliseconds for the whole call, body included. Default 15 000. */
  timeout?: number
}

export type OutboundLimits = Readonly<Required<OutboundOptions>>

export const DEFAULT_OUTBOUND: OutboundLimits = Object.freeze({ maxResponseSize: 1024 * 1024, connectTimeout: 5_000, timeout: 15_000 })

const KEYS = Object.keys(DEFAULT_OUTBOUND) as (keyof OutboundOptions)[]

/** The limits in force for an `outbound` option; throws `InvalidOption` naming `path` for a bad one. */
export function outboundLimits(option: unknown, path = "outbound"): OutboundLimits {
  if (option === undefined) return DEFAULT_OUTBOUND
  if (typeof option !== "object" || option === null || Array.isArray(option)) {
    throw new InvalidOption(`${path} must be an object { ${KEYS.join(", ")} } (got ${JSON.stringify(option)})`)
  }
  const given = option as Record<string, unknown>
  for (const key of Object.keys(given)) {
    if (!KEYS.includes(key as keyof OutboundOptions)) throw new InvalidOption(`${path}.${key} is not an option (expected ${KEYS.join(", ")})`)
  }
  for (const key of KEYS) {
    const value = given[key]
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1)) {
      throw new InvalidOption(`${path}.${key} must be a whole number ≥ 1 (got ${JSON.stringify(value)})`)
    }
  }
  return Object.freeze({ ...DEFAULT_OUTBOUND, ...(given as OutboundOptions) })
}
