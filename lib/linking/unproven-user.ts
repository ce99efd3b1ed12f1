/**
 * A sign-in that proves an address (a magic link, a provider that vouches for the email) meets a
 * stored user with that address whose address nobody proved (`emailVerified: null`). If that user
 * has other ways to sign in, someone may have set them up before the owner came (pre-account
 * hijacking): a stranger registers a passkey for victim@example.com, the victim later signs in by
 * link, and the stranger's passkey would reach the victim's account. The policy
 * (`accountLinking.unverifiedEmail`) decides:
 * - "reclaim": every other account and passkey of that user is removed and every session of the
 *   user ended (on every process), before the owner is signed in; the caller tells the owner.
 * - "refuse": `UnverifiedAccountExists`, and nothing changes.
 * Reclaiming needs the adapter to list a user's accounts (`listAccountsByUserId`) and, with
 * database sessions, to delete them by user; without those, the sign-in is refused instead.
 *
 * A user with a credentials account is the app's own (its `authorize` stands for who they are,
 * and links them again on their next sign-in anyway): never reclaimed nor refused here. The
 * caller then applies the rules for a user whose address is taken (OAuth: only an opted-in
 * provider links; a magic link signs its owner in), as the catalog's OAUTH-07 requires.
 */
import { UnverifiedAccountExists } from "../errors.js"
import type { Adapter, AdapterAccount, AdapterUser } from "../adapters.js"
import type { Account } from "../types.js"
import type { RequestContext } from "../core/context.js"
import type { TransactionalAdapter } from "../core/adapter.js"
import { endUserSessions } from "../sessions/revoke-user.js"
import { audit } from "../audit/emit.js"

export interface ProvenSignIn {
  user: AdapterUser
  /** Other sign-in methods were removed: the owner is told on the next page. */
  reclaimed: boolean
  /** The user has a credentials account: the app's own user, left to the ordinary rules. */
  appOwned?: boolean
}

const REFUSED = "A user with this address exists, set up without proving the address, and it has other ways to sign in"

const same = (a: Pick<AdapterAccount, "provider" | "providerAccountId">, b: Pick<Account, "provider" | "providerAccountId">) =>
  a.provider === b.provider && a.providerAccountId === b.providerAccountId

/** What another sign-in method of `user` would be: accounts other than `proving`, and passkeys. */
async function otherMethods(adapter: Adapter, user: AdapterUser, proving: Account) {
  const accounts = ((await adapter.listAccountsByUserId?.(user.id)) ?? []).filter((account) => !same(account, proving))
  const passkeys = (await adapter.listAuthenticatorsByUserId?.(user.id)) ?? []
  return { accounts, passkeys }
}

function canReclaim(ctx: RequestContext): boolean {
  const adapter = ctx.config.adapter as Adapter
  if (!adapter.listAccountsByUserId || !adapter.unlinkAccount) return false
  return ctx.config.session.strategy !== "database" || typeof adapter.deleteSessionsByUserId === "function"
}

/**
 * The stored user `stored` (found by the proven address) for the person who just proved it, with
 * the policy applied. The caller marks the address verified and links `proving`.
 */
export async function claimProvenAddress(ctx: RequestContext, stored: AdapterUser, proving: Account): Promise<ProvenSignIn> {
  if (stored.emailVerified) return { user: stored, reclaimed: false }
  const adapter = ctx.config.adapter as TransactionalAdapter
  if (!canReclaim(ctx)) {
    throw new UnverifiedAccountExists(`${REFUSED}; the adapter cannot list or remove them (it needs listAccountsByUserId, unlinkAccount${ctx.config.session.strategy === "database" ? " and deleteSessionsByUserId" : ""}), so the sign-in is refused`)
  }
  const { accounts, passkeys } = await otherMethods(adapter, stored, proving)
  if (accounts.some((account) => (account.type as string) === "credentials")) return { user: stored, reclaimed: false, appOwned: true }
  if (!accounts.length && !passkeys.length) return { user: stored, reclaimed: false }
  if (ctx.config.accountLinking.unverifiedEmail === "refuse") {
    throw new UnverifiedAccountExists(`${REFUSED} (accountLinking.unverifiedEmail is "refuse")`)
  }
  const remove = async (tx: Adapter) => {
    for (const passkey of passkeys) await tx.deleteAuthenticator?.(passkey.credentialID)
    for (const account of accounts) await tx.unlinkAccount?.({ provider: account.provider, providerAccountId: account.providerAccountId })
  }
  if (adapter.transaction) await adapter.transaction(remove)
  else await remove(adapter)
  // Every session the user had, on every process: a squatter's open session must not wake up
  // in the owner's account. The owner's own session starts after this.
  await endUserSessions(ctx.config, stored.id)
  // Security-relevant: always in the verbose log, and in the audit trail (issue #20).
  const facts = { userId: stored.id, provider: proving.provider, removedAccounts: accounts.map((account) => account.provider), removedPasskeys: passkeys.length }
  ctx.config.logger.debug("account-reclaimed", facts)
  audit(ctx.config, { type: "account.reclaimed", ...facts })
  return { user: stored, reclaimed: true }
}
