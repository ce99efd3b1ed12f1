/**
 * The relying party of a passkey ceremony: from the provider's `relayingParty`, else from the
 * site's URL as Gatehouse knows it (AUTH_URL, or a trusted host), never from an untrusted header.
 */
import type { RequestContext } from "../../core/context.js"
import type { WebAuthnProviderConfig } from "../types.js"

export interface RelyingParty {
  id: string
  name: string
  origins: string[]
}

export function relyingParty(ctx: RequestContext, provider: WebAuthnProviderConfig): RelyingParty {
  const site = new URL(ctx.request.origin)
  const configured = provider.relayingParty ?? {}
  const origins = configured.origin === undefined ? [site.origin] : Array.isArray(configured.origin) ? configured.origin : [configured.origin]
  return { id: configured.id ?? site.hostname, name: configured.name ?? site.hostname, origins }
}
