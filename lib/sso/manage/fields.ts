/**
 * The fields of a connection as an admin (or the app's server code) sends them (issue #28),
 * checked one by one: every refusal is `InvalidSsoConnection` naming the field. Forms send
 * strings ("on" for a ticked box, lines for a list); JSON may send booleans, lists and objects.
 */
import { X509Certificate } from "node:crypto"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { AdapterOrganization } from "../../organizations/adapter.js"
import { roleIn } from "../../organizations/access.js"
import { InvalidSsoConnection } from "../errors.js"

/** What a create or update may carry (every field unknown until checked). */
export interface ConnectionInput {
  type?: unknown
  name?: unknown
  enabled?: unknown
  // SAML
  metadataXml?: unknown
  metadataUrl?: unknown
  entityId?: unknown
  ssoUrl?: unknown
  sloUrl?: unknown
  certificate?: unknown
  allowIdpInitiated?: unknown
  signRequests?: unknown
  nameIdFormat?: unknown
  // OIDC
  issuer?: unknown
  clientId?: unknown
  clientSecret?: unknown
  scopes?: unknown
  // Mapping
  emailAttribute?: unknown
  nameAttribute?: unknown
  groupsAttribute?: unknown
  roleMapping?: unknown
}

export const CONNECTION_FIELDS: readonly (keyof ConnectionInput)[] = [
  "type", "name", "enabled", "metadataXml", "metadataUrl", "entityId", "ssoUrl", "sloUrl", "certificate", "allowIdpInitiated", "signRequests", "nameIdFormat",
  "issuer", "clientId", "clientSecret", "scopes", "emailAttribute", "nameAttribute", "groupsAttribute", "roleMapping",
]

function invalid(field: string, why: string): InvalidSsoConnection {
  return new InvalidSsoConnection(`${field}: ${why}`)
}

/** A field sent at all (a form's empty text box counts as not sent). */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null && value !== ""
}

export function text(value: unknown, field: string, max = 256): string {
  if (typeof value !== "string" || !value.trim()) throw invalid(field, "required")
  const trimmed = value.trim()
  if (trimmed.length > max || [...trimmed].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) throw invalid(field, `at most ${max} characters, on one line`)
  return trimmed
}

export function flag(value: unknown, field: string): boolean {
  if (typeof value === "boolean") return value
  if (typeof value === "string") {
    const lower = value.trim().toLowerCase()
    if (["on", "true", "1", "yes"].includes(lower)) return true
    if (["off", "false", "0", "no", ""].includes(lower)) return false
  }
  throw invalid(field, "must be true or false")
}

function loopback(hostname: string): boolean {
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]"
}

/** An https URL (http only on this machine: 127.0.0.1, localhost, [::1], for development and tests). */
export function url(value: unknown, field: string): string {
  const raw = text(value, field, 2048)
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw invalid(field, "not a URL")
  }
  if (parsed.username || parsed.password) throw invalid(field, "a URL with credentials is not accepted")
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && loopback(parsed.hostname))) throw invalid(field, "must be an https URL")
  // As typed: an OIDC issuer is compared with the `iss` of its tokens character for character.
  return raw
}

/**
 * A certificate (PEM, or base64 DER) that node:crypto parses; stored as base64 DER. An expired one
 * is accepted (the identity provider may still sign with it, and refusing would lock the
 * organization out), with a warning in `warnings` for the answer.
 */
export function certificate(value: unknown, field: string, warnings: string[]): string {
  if (typeof value !== "string" || !value.trim()) throw invalid(field, "required")
  if (value.length > 64 * 1024) throw invalid(field, "too long for a certificate")
  const body = value
    .replace(/-----BEGIN CERTIFICATE-----/, "")
    .replace(/-----END CERTIFICATE-----/, "")
    .replace(/\s+/g, "")
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw invalid(field, "not a PEM or base64 certificate")
  let parsed: X509Certificate
  try {
    parsed = new X509Certificate(Buffer.from(body, "base64"))
  } catch {
    throw invalid(field, "the certificate does not parse")
  }
  const validTo = Date.parse(parsed.validTo)
  if (Number.isFinite(validTo) && validTo < Date.now()) {
    warnings.push(`${field}: the certificate expired on ${parsed.validTo}; the identity provider should roll its key over`)
  }
  return body
}

/** Extra OIDC scopes: a list, or a string separated by spaces, commas or lines. */
export function scopes(value: unknown, field = "scopes"): string[] {
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[\s,]+/) : null
  if (!list) throw invalid(field, "a list of scopes")
  const out = [...new Set(list.map((scope) => (typeof scope === "string" ? scope.trim() : scope)).filter((scope) => scope !== ""))]
  if (out.length > 20 || !out.every((scope) => typeof scope === "string" && /^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(scope))) throw invalid(field, "at most 20 scopes, each a word without spaces or quotes")
  return (out as string[]).filter((scope) => !["openid", "email", "profile"].includes(scope))
}

/**
 * Group -> role: a JSON object (`{ "Engineering": "admin" }`), or lines `Engineering=admin`. Every
 * role must be a role of the organization, and never `owner` (owners are made by owners).
 */
export function roleMapping(config: ResolvedConfig, organization: AdapterOrganization, value: unknown): Record<string, string> {
  let entries: Array<[string, unknown]>
  if (value && typeof value === "object" && !Array.isArray(value)) entries = Object.entries(value as Record<string, unknown>)
  else if (typeof value === "string" && value.trim().startsWith("{")) {
    let parsed: unknown
    try {
      parsed = JSON.parse(value)
    } catch {
      throw invalid("roleMapping", "not valid JSON")
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid("roleMapping", "a JSON object of group to role")
    entries = Object.entries(parsed as Record<string, unknown>)
  } else if (typeof value === "string") {
    entries = value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const at = line.lastIndexOf("=")
        if (at < 1) throw invalid("roleMapping", `"${line.slice(0, 40)}" is not group=role`)
        return [line.slice(0, at).trim(), line.slice(at + 1).trim()] as [string, string]
      })
  } else throw invalid("roleMapping", "a JSON object of group to role, or lines group=role")
  if (entries.length > 100) throw invalid("roleMapping", "at most 100 groups")
  const out: Record<string, string> = {}
  for (const [group, role] of entries) {
    if (!group || group.length > 256 || group === "__proto__") throw invalid("roleMapping", "a group name is empty or too long")
    if (role === "owner") throw invalid("roleMapping", "owner cannot be given through SSO")
    try {
      roleIn(config, organization, role)
    } catch {
      throw invalid("roleMapping", `${JSON.stringify(role)} is not a role of this organization`)
    }
    out[group] = role as string
  }
  return out
}
