/**
 * The checks of an organization's fields (issue #27): a bad value is refused with
 * `InvalidRequest` naming the field, and nothing is stored.
 */
import { randomUUID } from "node:crypto"
import { InvalidRequest } from "../errors.js"

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/
const MAX_METADATA = 8 * 1024

export function newId(): string {
  return randomUUID()
}

export function checkName(value: unknown): string {
  const name = typeof value === "string" ? value.trim().replace(/\s+/g, " ") : ""
  if (!name || name.length > 100) throw new InvalidRequest("An organization's name is 1 to 100 characters (name)")
  return name
}

export function checkSlug(value: unknown): string {
  const slug = typeof value === "string" ? value.trim().toLowerCase() : ""
  if (!SLUG.test(slug)) throw new InvalidRequest("A slug is 1 to 48 lower-case letters, digits and dashes, not starting or ending with a dash (slug)")
  return slug
}

/** A slug made from a name ("Acme, Inc." -> "acme-inc"), or "org" when nothing is left. */
export function slugFrom(name: string): string {
  const made = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "")
  return made || "org"
}

export function checkLogo(value: unknown): string | null {
  if (value === null || value === "") return null
  if (typeof value !== "string" || value.length > 2048) throw new InvalidRequest("A logo is an https URL (logo)")
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidRequest("A logo is an https URL (logo)")
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && (url.hostname === "localhost" || url.hostname === "127.0.0.1"))) throw new InvalidRequest("A logo is an https URL (logo)")
  return url.href
}

export function checkMetadata(value: unknown): Record<string, unknown> | null {
  if (value === null) return null
  let parsed = value
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value)
    } catch {
      throw new InvalidRequest("metadata is a JSON object")
    }
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new InvalidRequest("metadata is a JSON object")
  if (JSON.stringify(parsed).length > MAX_METADATA) throw new InvalidRequest(`metadata is at most ${MAX_METADATA} bytes of JSON`)
  return parsed as Record<string, unknown>
}

/** An address as invitations compare it: trimmed, lower-cased. */
export function checkEmail(value: unknown): string {
  const email = typeof value === "string" ? value.trim().toLowerCase() : ""
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new InvalidRequest("An invitation needs an email address (email)")
  return email
}

export function checkUserId(value: unknown, field = "userId"): string {
  if (typeof value !== "string" || !value || value.length > 200) throw new InvalidRequest(`The request names no member (${field})`)
  return value
}
