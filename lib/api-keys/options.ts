/**
 * The `apiKeys` option (issue #31), checked and resolved once with the configuration. Off unless
 * given; `apiKeys: true` (or `{}`) turns it on with the defaults. A mistake throws `InvalidOption`
 * naming the option; an adapter without the storage methods throws `MissingAdapterMethods`.
 */
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"
import { API_KEY_ADAPTER_METHODS } from "./adapter.js"
import { CHECKSUM_LENGTH, RANDOM_LENGTH } from "./format.js"
import type { ApiKeysOptions, ResolvedApiKeys } from "./settings.js"

export type { ApiKeysOptions, ResolvedApiKeys } from "./settings.js"

const PREFIX = /^[a-z][a-z0-9_]{1,14}_$/
const SCOPE = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,63}$/
const HEADER = /^[A-Za-z0-9-]{1,64}$/
/** Headers that are never an API key's (the key would travel where it does not belong). */
const RESERVED_HEADERS = new Set(["authorization", "cookie", "host", "content-type", "content-length", "accept", "origin", "referer", "user-agent"])

function assertStorage(adapter: Adapter | undefined): void {
  if (!adapter) throw new MissingAdapter("apiKeys needs an adapter (keys are stored, as hashes)")
  const missing = [...API_KEY_ADAPTER_METHODS, "getUser"].filter((method) => typeof adapter[method as keyof Adapter] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`apiKeys needs these adapter methods, which the adapter lacks: ${missing.join(", ")}`)
}

export function resolveApiKeys(option: unknown, adapter: Adapter | undefined): ResolvedApiKeys | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (!option || typeof option !== "object" || Array.isArray(option))) {
    throw new InvalidOption(`apiKeys must be true or an object such as { prefix: "acme_", scopes: ["read", "write"] } (got ${JSON.stringify(option)})`)
  }
  const given = (option === true ? {} : option) as ApiKeysOptions
  const { prefix = "gk_", scopes = [], header, maxAge, rateLimit = { limit: 600, window: 60 }, userKeys = true } = given
  if (typeof prefix !== "string" || !PREFIX.test(prefix)) throw new InvalidOption(`apiKeys.prefix must be 3 to 16 lower-case letters, digits and _, starting with a letter and ending with _ (got ${JSON.stringify(prefix)})`)
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string" || !SCOPE.test(scope))) {
    throw new InvalidOption(`apiKeys.scopes must be a list of scope names (letters, digits, : . _ -) (got ${JSON.stringify(scopes)})`)
  }
  if (header !== undefined && (typeof header !== "string" || !HEADER.test(header) || RESERVED_HEADERS.has(header.toLowerCase()))) {
    throw new InvalidOption(`apiKeys.header must be a header name of your own, such as "x-api-key" (got ${JSON.stringify(header)})`)
  }
  if (maxAge !== undefined && (typeof maxAge !== "number" || !Number.isInteger(maxAge) || maxAge < 60)) throw new InvalidOption(`apiKeys.maxAge must be a whole number of seconds, at least 60 (got ${JSON.stringify(maxAge)})`)
  if (rateLimit !== false) {
    const { limit, window } = (rateLimit ?? {}) as { limit?: unknown; window?: unknown }
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || typeof window !== "number" || !Number.isInteger(window) || window < 1) {
      throw new InvalidOption(`apiKeys.rateLimit must be false or { limit, window } in whole numbers (got ${JSON.stringify(rateLimit)})`)
    }
  }
  if (typeof userKeys !== "boolean") throw new InvalidOption(`apiKeys.userKeys must be a boolean (got ${JSON.stringify(userKeys)})`)
  assertStorage(adapter)
  return Object.freeze({
    prefix,
    scopes: new Set(scopes),
    header: header?.toLowerCase(),
    maxAge,
    rateLimit: rateLimit === false ? null : Object.freeze({ limit: rateLimit.limit, window: rateLimit.window }),
    userKeys,
    length: prefix.length + RANDOM_LENGTH + CHECKSUM_LENGTH,
  })
}
