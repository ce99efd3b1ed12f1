/**
 * A SAML profile as `SsoProfile` (issue #28), read only from what node-saml returned (the signed
 * assertion): the subject is the NameID; the address, the name and the groups come from the
 * connection's mapping when it names an attribute, else from the usual attribute names of Okta,
 * Entra ID, Google Workspace and ADFS.
 */
import type { Profile } from "@node-saml/node-saml"
import type { SsoMapping } from "../adapter.js"
import type { SsoProfile } from "../profile.js"

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const EMAIL_NAMES = ["email", "mail", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "urn:oid:0.9.2342.19200300.100.1.3"]
const NAME_NAMES = ["displayName", "name", "http://schemas.microsoft.com/identity/claims/displayname", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"]
const GROUP_NAMES = ["groups", "memberOf", "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"]

/** The attribute's text values (an attribute may be one value or a list; structured values are skipped). */
function values(attributes: Record<string, unknown>, name: string | undefined): string[] {
  if (!name || !Object.prototype.hasOwnProperty.call(attributes, name)) return []
  const value = attributes[name]
  const list = Array.isArray(value) ? value : [value]
  return list.filter((item): item is string => typeof item === "string").map((item) => item.trim()).filter(Boolean)
}

function first(attributes: Record<string, unknown>, mapped: string | undefined, fallbacks: string[]): string | undefined {
  if (mapped) return values(attributes, mapped)[0]
  for (const name of fallbacks) {
    const found = values(attributes, name)[0]
    if (found) return found
  }
  return undefined
}

function emailOf(profile: Profile, attributes: Record<string, unknown>, mapping: SsoMapping | null | undefined): string | undefined {
  const mapped = mapping?.email ? values(attributes, mapping.email)[0] : undefined
  const candidate = mapped ?? (ADDRESS.test(profile.nameID) ? profile.nameID : first(attributes, undefined, EMAIL_NAMES))
  return candidate && ADDRESS.test(candidate) && candidate.length <= 320 ? candidate.toLowerCase() : undefined
}

export function samlProfileOf(profile: Profile, mapping: SsoMapping | null | undefined): SsoProfile {
  const attributes = profile.attributes && typeof profile.attributes === "object" ? { ...(profile.attributes as Record<string, unknown>) } : {}
  const groupNames = mapping?.groups ? [mapping.groups] : GROUP_NAMES
  const groups = [...new Set(groupNames.flatMap((name) => values(attributes, name)))]
  const name = first(attributes, mapping?.name, NAME_NAMES)
  return {
    subject: profile.nameID,
    email: emailOf(profile, attributes, mapping),
    ...(name ? { name: name.slice(0, 200) } : {}),
    ...(groups.length ? { groups } : {}),
    ...(typeof profile.nameIDFormat === "string" ? { nameIdFormat: profile.nameIDFormat } : {}),
    ...(typeof profile.sessionIndex === "string" ? { sessionIndex: profile.sessionIndex } : {}),
    attributes,
  }
}
