/**
 * The email provider's `code` option (and `confirm`, the page the link opens first), checked at
 * start-up through the capability (capability.ts, `checkProvider`): each mistake is an
 * `InvalidOption` naming the option. What the settings mean is in code.ts.
 */
import { InvalidOption } from "../errors.js"
import type { EmailCodeOptions, EmailProviderConfig } from "../providers/types.js"

/** Start-up check of `confirm` and `code` (InvalidOption naming the option). */
export function assertCodeOptions(provider: EmailProviderConfig, path: string): void {
  if (provider.confirm !== undefined && typeof provider.confirm !== "boolean") {
    throw new InvalidOption(`${path}.confirm must be true or false (got ${JSON.stringify(provider.confirm)})`)
  }
  const option = provider.code as unknown
  if (option === undefined || option === false) return
  if (typeof option !== "object" || option === null) throw new InvalidOption(`${path}.code must be false or { format, length, maxAge } (got ${JSON.stringify(option)})`)
  const { format, length, maxAge, ...rest } = option as EmailCodeOptions
  const extra = Object.keys(rest)[0]
  if (extra !== undefined) throw new InvalidOption(`${path}.code.${extra} is not an option (expected format, length, maxAge)`)
  if (format !== undefined && format !== "digits" && format !== "letters") {
    throw new InvalidOption(`${path}.code.format must be "digits" or "letters" (got ${JSON.stringify(format)})`)
  }
  if (length !== undefined && (!Number.isInteger(length) || length < 6 || length > 12)) {
    throw new InvalidOption(`${path}.code.length must be a whole number from 6 to 12 (got ${JSON.stringify(length)})`)
  }
  if (maxAge !== undefined && (typeof maxAge !== "number" || !Number.isFinite(maxAge) || maxAge <= 0)) {
    throw new InvalidOption(`${path}.code.maxAge must be a positive number of seconds (got ${JSON.stringify(maxAge)})`)
  }
}
