/**
 * What provisioning reads from the attributes a directory sent for a user (issue #29): the address
 * the Gatehouse user is found or created by (the primary, else the first, `emails[].value`, else
 * the userName when it is an address), and the name a new user gets (`name.formatted`,
 * `displayName`, or `name.givenName` + `name.familyName`). Pure functions of the input.
 */
import { domainOf } from "../sso/domains-shared.js"

const ADDRESS = /^[^\s@]{1,64}@[^\s@]{1,253}$/

/** A trimmed, lower-cased address with a real domain, or undefined. */
function addressOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const trimmed = value.trim().toLowerCase()
  return ADDRESS.test(trimmed) && domainOf(trimmed) ? trimmed : undefined
}

const record = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined)

/** The user's address: the primary email, else the first one, else the userName; undefined when none is an address. */
export function provisionedAddress(userName: string, attributes: Record<string, unknown>): string | undefined {
  const emails = Array.isArray(attributes.emails) ? attributes.emails.map(record).filter((email) => email !== undefined) : []
  const chosen = emails.find((email) => email.primary === true || email.primary === "true" || email.primary === "True") ?? emails[0]
  if (chosen) return addressOf(chosen.value)
  return addressOf(userName)
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() ? value.trim().slice(0, 200) : undefined)

/** The name a new user gets, or null. */
export function provisionedName(attributes: Record<string, unknown>): string | null {
  const name = record(attributes.name)
  const joined = [text(name?.givenName), text(name?.familyName)].filter(Boolean).join(" ")
  return text(name?.formatted) ?? text(attributes.displayName) ?? (joined || null)
}
