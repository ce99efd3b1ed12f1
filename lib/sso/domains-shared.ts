/** Email domains as enterprise sign-in compares them (issue #28): lower-case, no trailing dot. */
import { domainToASCII } from "node:url"

/** The domain of an address ("Alice@Example.COM" -> "example.com"), or undefined. */
export function domainOf(email: string): string | undefined {
  const at = email.lastIndexOf("@")
  if (at < 1) return undefined
  return normalizeDomain(email.slice(at + 1))
}

/** A domain name as stored (IDN to ASCII, lower-case, no trailing dot), or undefined when it is not one. */
export function normalizeDomain(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const ascii = domainToASCII(value.trim().replace(/\.$/, "")).toLowerCase()
  if (ascii.length > 253 || !/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(ascii)) return undefined
  return ascii
}
