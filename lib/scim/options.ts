/**
 * The `scim` option (issue #29), checked and resolved once with the configuration. Off unless
 * given; needs organizations (a directory provisions one organization's members) and an adapter
 * with the storage methods (`MissingAdapterMethods` names the ones it lacks).
 */
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"
import { SCIM_ADAPTER_METHODS } from "./adapter.js"
import type { ResolvedScim, ScimOptions } from "./settings.js"

export type { ResolvedScim, ScimOptions } from "./settings.js"

export function resolveScim(option: unknown, adapter: Adapter | undefined, organizationsOn: boolean): ResolvedScim | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (!option || typeof option !== "object" || Array.isArray(option))) {
    throw new InvalidOption(`scim must be true or an object such as { maxResults: 100 } (got ${JSON.stringify(option)})`)
  }
  if (!organizationsOn) throw new InvalidOption("scim needs the organizations option: a directory provisions an organization's members")
  const { maxResults = 100, rateLimit = 600 } = (option === true ? {} : option) as ScimOptions
  if (typeof maxResults !== "number" || !Number.isInteger(maxResults) || maxResults < 1 || maxResults > 1000) throw new InvalidOption(`scim.maxResults must be a whole number from 1 to 1000 (got ${JSON.stringify(maxResults)})`)
  if (typeof rateLimit !== "number" || !Number.isInteger(rateLimit) || rateLimit < 1) throw new InvalidOption(`scim.rateLimit must be a whole number of requests per minute (got ${JSON.stringify(rateLimit)})`)
  if (!adapter) throw new MissingAdapter("scim needs an adapter (tokens, provisioned users and groups are stored)")
  const missing = SCIM_ADAPTER_METHODS.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`scim needs these adapter methods, which the adapter lacks: ${missing.join(", ")}`)
  return Object.freeze({ maxResults, rateLimit })
}
