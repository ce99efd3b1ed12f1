/**
 * Removing one of the signed-in user's ways to sign in: unlinking a provider's account, or
 * removing a passkey. Only the user's own: anything else is `SignInMethodNotFound`, whether it
 * exists for someone else or not at all (nothing is revealed). Never the last one: the check and
 * the removal run together, alone among the removals of that user (per-user.ts), so two removals
 * at the same moment cannot both pass it (issue #24). The `unlinkAccount` event fires for each
 * account removed, once the removal is done.
 */
import type { AdapterAccount } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { SignInMethodNotFound } from "./errors.js"
import { assertNotLast, signInMethods } from "./methods.js"
import { withUserHeld } from "./per-user.js"
import type { AccountHolder, FullAdapter } from "./user.js"

async function unlink(adapter: FullAdapter, account: AdapterAccount): Promise<void> {
  await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
}

async function announce(config: ResolvedConfig, holder: AccountHolder, removed: AdapterAccount[]): Promise<void> {
  for (const account of removed) await fireEvent(config, "unlinkAccount", { user: holder.user, account })
}

/** Unlinks the user's account(s) of `providerId` (OAuth/OIDC, or any non-passkey provider). */
export async function unlinkProvider(config: ResolvedConfig, holder: AccountHolder, providerId: unknown): Promise<void> {
  const removed = await withUserHeld(config, holder.user.id, async (adapter) => {
    const methods = await signInMethods(config, holder.user.id, adapter)
    const linked = typeof providerId === "string" ? methods.accounts.filter((account) => account.provider === providerId && account.type !== "webauthn") : []
    if (!linked.length) throw new SignInMethodNotFound("No account of that provider is linked to this user")
    assertNotLast(methods, linked.length)
    for (const account of linked) await unlink(adapter, account)
    return linked
  })
  await announce(config, holder, removed)
}

/** Removes the user's passkey `credentialID` (its authenticator and its webauthn account). */
export async function removePasskey(config: ResolvedConfig, holder: AccountHolder, credentialID: unknown): Promise<void> {
  const removed = await withUserHeld(config, holder.user.id, async (adapter) => {
    const methods = await signInMethods(config, holder.user.id, adapter)
    const passkey = typeof credentialID === "string" ? methods.passkeys.find((candidate) => candidate.credentialID === credentialID) : undefined
    if (!passkey) throw new SignInMethodNotFound("No passkey with that id belongs to this user")
    assertNotLast(methods, 1)
    await adapter.deleteAuthenticator(passkey.credentialID)
    const account = methods.accounts.find((candidate) => candidate.type === "webauthn" && candidate.providerAccountId === passkey.providerAccountId)
    if (account) await unlink(adapter, account)
    return account ? [account] : []
  })
  await announce(config, holder, removed)
}
