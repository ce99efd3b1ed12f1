/**
 * The start of an SP-initiated SAML sign-in (issue #28): the identity provider's URL carrying our
 * AuthnRequest (HTTP-Redirect binding, signed when the connection asks), with the relay id as
 * RelayState. node-saml keeps the request's id in the shared store, so the answer is checked
 * against it (`InResponseTo`) whichever process receives it.
 */
import type { RequestContext } from "../../core/context.js"
import type { AdapterSsoConnection } from "../adapter.js"
import { InvalidSsoConnection } from "../errors.js"
import { samlFor } from "./instance.js"

export async function startSaml(ctx: RequestContext, connection: AdapterSsoConnection, relayId: string): Promise<string> {
  try {
    return await samlFor(ctx, connection).getAuthorizeUrlAsync(relayId, new URL(ctx.baseUrl).host, {})
  } catch (error) {
    if (error instanceof InvalidSsoConnection) throw error
    throw new InvalidSsoConnection(`Connection ${connection.id}: the AuthnRequest could not be made: ${error instanceof Error ? error.message : String(error)}`)
  }
}
