/**
 * Who asks for a service token, and what they hold (issue #31): an API key in the request (its
 * owner, its scopes), else the signed-in session (the user; with organizations on, the active
 * organization and its permissions; the admin impersonating the user, if one is). A request that
 * presents a key is answered for the key or refused, never for the browser's session beside it.
 */
import type { RequestContext } from "../core/context.js"
import { requireSignedIn } from "../session/assurance.js"
import type { ApiKeyCaller } from "../api-keys/caller.js"

export interface TokenCaller {
  readonly via: "session" | "apiKey"
  /** The `sub` claim: the user's id, or `org:<organization id>` for an organization's key. */
  readonly subject: string
  /** The user behind it (null for an organization's key). */
  readonly userId: string | null
  /** The `org` claim: the organization it acts for, if any. */
  readonly organizationId: string | null
  /** The scopes a token may carry. */
  readonly scopes: ReadonlySet<string>
  /** The admin impersonating the user (the `act` claim). */
  readonly actorId?: string
  /** The API key's id (audit only). */
  readonly apiKeyId?: string
}

function fromKey({ key, user, organization, scopes }: ApiKeyCaller): TokenCaller {
  if (user) return { via: "apiKey", subject: user.id, userId: user.id, organizationId: null, scopes, apiKeyId: key.id }
  const organizationId = organization?.id ?? key.organizationId ?? ""
  return { via: "apiKey", subject: `org:${organizationId}`, userId: null, organizationId, scopes, apiKeyId: key.id }
}

export async function tokenCaller(ctx: RequestContext): Promise<TokenCaller> {
  // The key code is loaded on first use of this route only.
  const { verifyRequestKey } = await import("../api-keys/verify.js")
  const key = await verifyRequestKey(ctx)
  if (key) return fromKey(key)
  const { session, identity } = await requireSignedIn(ctx, "session", "A service token")
  const organization = ctx.config.organizations ? session.organization : undefined
  return {
    via: "session",
    subject: identity.userId,
    userId: identity.userId,
    organizationId: organization?.id ?? null,
    scopes: new Set(organization?.permissions ?? []),
    ...(session.impersonatedBy && { actorId: session.impersonatedBy.id }),
  }
}
