/**
 * A sign-in that proves an address (a magic link, a provider that vouches for the email, a
 * password link) meets a stored user with that address whose address nobody proved
 * (`emailVerified: null`). If that user has other ways in, someone may have set them up before
 * the owner came (pre-account hijacking): a stranger registers a passkey, or signs up with a
 * password, for victim@example.com, and the victim's later sign-in would reach an account the
 * stranger can still open. The policy (`accountLinking.unverifiedEmail`) decides:
 * - "reclaim": every other account and passkey of that user, a password typed before the proof,
 *   and a two-factor enrolment with its recovery codes are removed, and every session of the user
 *   ended (on every process), before the owner is signed in; the caller tells the owner.
 * - "refuse": `UnverifiedAccountExists`, and nothing changes.
 * Reclaiming needs the adapter to list a user's accounts (`listAccountsByUserId`) and, with
 * database sessions, to delete them by user; without those, the sign-in is refused instead.
 *
 * A user with a credentials account of an `authorize` provider is the app's own (`authorize`
 * stands for who they are): never reclaimed nor refused here. The caller then applies the rules
 * for a user whose address is taken (OAuth: only an opted-in provider links; a magic link signs
 * its owner in), as the catalog's OAUTH-07 requires. A password account (the Password provider)
 * is not: its password was typed by whoever signed up, before anyone proved the address.
 *
 * `claimForAppUser` is the same taking-back for the app's own credentials user meeting an unproven
 * squatter of its address (`authorize` vouches for that user; the squatter vouched for nothing).
 */
import { UnverifiedAccountExists } from "../errors.js"
import type { Adapter, AdapterAccount, AdapterUser } from "../adapters.js"
import type { Account } from "../types.js"
import type { RequestContext } from "../core/context.js"
import type { TransactionalAdapter } from "../core/adapter.js"
import { endUserSessions } from "../devices/revoke-user.js"
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

/** What another sign-in method of `user` would be: accounts other than `proving`, passkeys, a second factor. */
async function otherMethods(adapter: Adapter, user: AdapterUser, proving: Account) {
  const accounts = ((await adapter.listAccountsByUserId?.(user.id)) ?? []).filter((account) => !same(account, proving))
  const passkeys = (await adapter.listAuthenticatorsByUserId?.(user.id)) ?? []
  // A squatter's second factor would stop the owner at the squatter's challenge.
  const twoFactor = Boolean(await adapter.getTwoFactor?.(user.id))
  return { accounts, passkeys, twoFactor }
}

/** The ids of the Password providers: their credentials accounts hold a password someone typed, not the app's word. */
function passwordProviderIds(ctx: RequestContext): Set<string> {
  return new Set(ctx.config.providers.list.filter((provider) => provider.type === "credentials" && typeof (provider as { password?: unknown }).password === "object").map((provider) => provider.id))
}

/** A credentials account of an `authorize` provider: the app's own user. */
function appOwnedAccount(ctx: RequestContext, account: AdapterAccount): boolean {
  return (account.type as string) === "credentials" && !passwordProviderIds(ctx).has(account.provider)
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
  return claim(ctx, stored, proving)
}

/**
 * The app's own credentials user (`proving`: its credentials account, not linked yet) meets the
 * unproven user `stored` holding its address: the squatter's methods and sessions go as with
 * "reclaim" (under "refuse": `UnverifiedAccountExists`), so the owner is never locked out. A
 * stored user that already has another app-owned credentials account is someone else: `appOwned`.
 */
export const claimForAppUser = (ctx: RequestContext, stored: AdapterUser, proving: Account): Promise<ProvenSignIn> => claim(ctx, stored, proving)

async function claim(ctx: RequestContext, stored: AdapterUser, proving: Account): Promise<ProvenSignIn> {
  const adapter = ctx.config.adapter as TransactionalAdapter
  if (!canReclaim(ctx)) {
    throw new UnverifiedAccountExists(`${REFUSED}; the adapter cannot list or remove them (it needs listAccountsByUserId, unlinkAccount${ctx.config.session.strategy === "database" ? " and deleteSessionsByUserId" : ""}), so the sign-in is refused`)
  }
  const { accounts, passkeys, twoFactor } = await otherMethods(adapter, stored, proving)
  if (accounts.some((account) => appOwnedAccount(ctx, account))) return { user: stored, reclaimed: false, appOwned: true }
  if (!accounts.length && !passkeys.length && !twoFactor) return { user: stored, reclaimed: false }
  if (ctx.config.accountLinking.unverifiedEmail === "refuse") {
    throw new UnverifiedAccountExists(`${REFUSED} (accountLinking.unverifiedEmail is "refuse")`)
  }
  const remove = async (tx: Adapter) => {
    for (const passkey of passkeys) await tx.deleteAuthenticator?.(passkey.credentialID)
    for (const account of accounts) await tx.unlinkAccount?.({ provider: account.provider, providerAccountId: account.providerAccountId })
    // The enrolment and its recovery codes (disableTwoFactor removes both).
    if (twoFactor) await tx.disableTwoFactor?.(stored.id)
  }
  if (adapter.transaction) await adapter.transaction(remove)
  else await remove(adapter)
  // An adapter whose transaction-bound copy lacks the two-factor methods: removed outside it.
  if (twoFactor && (await adapter.getTwoFactor?.(stored.id))) await adapter.disableTwoFactor?.(stored.id)
  // Every session the user had, on every process: a squatter's open session must not wake up
  // in the owner's account. The owner's own session starts after this.
  await endUserSessions(ctx.config, stored.id)
  // Security-relevant: always in the verbose log, and in the audit trail (issue #20).
  const facts = { userId: stored.id, provider: proving.provider, removedAccounts: accounts.map((account) => account.provider), removedPasskeys: passkeys.length, removedTwoFactor: twoFactor }
  ctx.config.logger.debug("account-reclaimed", facts)
  audit(ctx.config, { type: "account.reclaimed", ...facts })
  return { user: stored, reclaimed: true }
}
