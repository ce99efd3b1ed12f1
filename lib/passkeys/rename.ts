/**
 * Renaming one of the signed-in user's passkeys (`POST account/passkey-rename`). Only the user's
 * own: any other id is `SignInMethodNotFound`, whether it is someone else's or nobody's (nothing is
 * revealed). A bad name is `InvalidPasskeyName` and changes nothing. Adapters without
 * `updateAuthenticator` cannot: `MissingAdapterMethods`.
 */
import type { Adapter, AdapterAuthenticator } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { MissingAdapterMethods } from "../errors.js"
import { SignInMethodNotFound } from "../account/errors.js"
import { accountAdapter, type AccountHolder } from "../account/user.js"
import { validPasskeyName } from "./name.js"
import { keepsPasskeyDetails } from "./record.js"

export async function renamePasskey(config: ResolvedConfig, holder: AccountHolder, credentialID: unknown, value: unknown): Promise<AdapterAuthenticator> {
  const adapter: Adapter = accountAdapter(config)
  if (!keepsPasskeyDetails(adapter)) {
    throw new MissingAdapterMethods("Renaming a passkey needs the adapter method updateAuthenticator (the memory, SQL and MongoDB adapters have it)")
  }
  const name = validPasskeyName(value)
  const passkey = typeof credentialID === "string" && credentialID ? await adapter.getAuthenticator!(credentialID) : null
  const notFound = () => new SignInMethodNotFound("No passkey with that id belongs to this user")
  if (!passkey || passkey.userId !== holder.user.id) throw notFound()
  const renamed = await adapter.updateAuthenticator!(passkey.credentialID, { name })
  if (!renamed) throw notFound()
  return renamed
}
