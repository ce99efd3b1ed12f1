/**
 * The ways a user can sign in: their linked accounts (OAuth/OIDC, email, credentials) and their
 * passkeys. A passkey is both an authenticator and a `webauthn` account; it counts once. The last
 * way in can never be removed (`LastSignInMethod`): the user would be locked out. The check and
 * the removal run together, one per user at a time (per-user.ts).
 */
import type { AdapterAccount, AdapterAuthenticator } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { MissingAdapterMethods } from "../errors.js"
import { LastSignInMethod } from "./errors.js"
import { accountAdapter, type FullAdapter } from "./user.js"

export interface SignInMethods {
  accounts: AdapterAccount[]
  passkeys: AdapterAuthenticator[]
}

/** The user's ways in, read through `adapter` (by default the configured one; a transaction's while removing one). */
export async function signInMethods(config: ResolvedConfig, userId: string, adapter: FullAdapter = accountAdapter(config)): Promise<SignInMethods> {
  if (typeof adapter.listAccountsByUserId !== "function") {
    throw new MissingAdapterMethods("The account page needs the adapter method listAccountsByUserId (the memory, SQL and MongoDB adapters have it)")
  }
  const accounts = await adapter.listAccountsByUserId(userId)
  const passkeys = typeof adapter.listAuthenticatorsByUserId === "function" ? await adapter.listAuthenticatorsByUserId(userId) : []
  return { accounts, passkeys }
}

/** How many separate ways in: accounts, with each passkey's webauthn account counted as its passkey. */
export function methodCount(methods: SignInMethods): number {
  const passkeyIds = new Set(methods.passkeys.map((passkey) => passkey.credentialID))
  const others = methods.accounts.filter((account) => !(account.type === "webauthn" && passkeyIds.has(account.providerAccountId)))
  return others.length + methods.passkeys.length
}

export function assertNotLast(methods: SignInMethods, removing: number): void {
  if (methodCount(methods) - removing < 1) {
    throw new LastSignInMethod("This is the user's last way to sign in; it cannot be removed before another is added")
  }
}
