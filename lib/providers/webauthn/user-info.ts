/**
 * The default `getUserInfo`: the `email` query parameter (normalised like email sign-in), looked
 * up with `getUserByEmail`. No email, or an invalid one: null (a plain passkey sign-in).
 */
import type { Adapter } from "../../adapters.js"
import { normalizeEmail } from "../email/identifier.js"
import type { WebAuthnProviderConfig, WebAuthnUserInfo } from "../types.js"

export async function defaultGetUserInfo({ request, adapter }: { provider: WebAuthnProviderConfig; request: Request; adapter: Adapter }): Promise<WebAuthnUserInfo | null> {
  const values = new URL(request.url).searchParams.getAll("email")
  if (values.length !== 1 || !values[0]) return null
  let email: string
  try {
    email = normalizeEmail(values[0])
  } catch {
    return null
  }
  const stored = await adapter.getUserByEmail?.(email)
  return stored ? { user: { id: stored.id, email: stored.email, name: stored.name }, exists: true } : { user: { email }, exists: false }
}
