/**
 * Who calls with an API key (issue #31): the key's record, its owner (a user, or an organization),
 * and what it may do. A file of types, so the service tokens (lib/service-tokens/) and the
 * express layer can name it without loading the key code.
 */
import type { AdapterUser } from "../adapters.js"
import type { AdapterApiKey } from "./adapter.js"

export interface ApiKeyCaller {
  readonly key: AdapterApiKey
  /** The owner of a user's key (null for an organization's key). */
  readonly user: AdapterUser | null
  /** The owner of an organization's key (null for a user's key). */
  readonly organization: { readonly id: string; readonly slug: string; readonly name: string } | null
  /** What the key may do (a Set of its scopes). */
  readonly scopes: ReadonlySet<string>
}

/** `auth.apiKey`: what `req.auth` says of the key (never the key itself, nor its hash). */
export interface ApiKeyFact {
  id: string
  name: string
  /** `"user"` or `"organization"`. */
  owner: "user" | "organization"
  userId: string | null
  organizationId: string | null
  scopes: string[]
  expires: string | null
}
