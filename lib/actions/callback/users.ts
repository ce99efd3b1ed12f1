/**
 * Finding or creating the stored user for a sign-in, through the adapter. Creating a user and
 * linking its account is one step: in a transaction when the adapter offers one, otherwise with a
 * compensating delete, so a failure never leaves a user without its account.
 */
import { randomUUID } from "node:crypto"
import { AccountNotLinked, AdapterError, CallbackRouteError, OAuthAccountNotLinked, OAuthCreateAccount } from "../../errors.js"
import type { AdapterAccount, AdapterUser, Adapter } from "../../adapters.js"
import type { Account, Profile, TokenSet, User } from "../../types.js"
import type { TransactionalAdapter } from "../../core/adapter.js"
import type { RequestContext } from "../../core/context.js"
import { fireEvent } from "../../core/events.js"
import { providerVouchesForEmail } from "../../linking/email-trust.js"
import { claimForAppUser, claimProvenAddress } from "../../linking/unproven-user.js"
import type { OAuthProviderConfig } from "../../providers/types.js"
import { signedIn } from "../../session/signed-in.js"
import { assertRecentSignIn } from "../../session/assurance.js"
import { sendSecurityNotice } from "../../notices/send.js"

export interface StoredSignIn {
  user: AdapterUser
  isNewUser: boolean
  /** A proven address took over a user whose other sign-in methods were removed (issue #12). */
  reclaimed?: boolean
}

type WithAll<T> = { [K in keyof T]-?: NonNullable<T[K]> }

/** More storage that belongs to the new user (a passkey): done in the same step as the user. */
export type AlsoStore = (adapter: WithAll<Adapter>, user: AdapterUser) => unknown

async function createAndLink(adapter: TransactionalAdapter, user: AdapterUser, account: Omit<AdapterAccount, "userId">, also?: AlsoStore): Promise<AdapterUser> {
  const work = async (tx: Adapter) => {
    const created = await (tx as WithAll<Adapter>).createUser(user)
    await (tx as WithAll<Adapter>).linkAccount({ ...account, userId: created.id } as AdapterAccount)
    await also?.(tx as WithAll<Adapter>, created)
    return created
  }
  if (adapter.transaction) return adapter.transaction(work)
  let created: AdapterUser | undefined
  try {
    created = await (adapter as WithAll<Adapter>).createUser(user)
    await (adapter as WithAll<Adapter>).linkAccount({ ...account, userId: created.id } as AdapterAccount)
    await also?.(adapter as WithAll<Adapter>, created)
    return created
  } catch (error) {
    if (created && adapter.deleteUser) {
      // Best effort: the original error is the one worth reporting.
      await Promise.resolve(adapter.deleteUser(created.id)).catch(() => undefined)
    }
    throw error
  }
}

/**
 * Creates the user and links `account`, then fires `createUser` and `linkAccount`. When the user
 * cannot be created because a concurrent sign-in just created the same account, that user is
 * returned instead (not new).
 */
export async function createUserWithAccount(
  ctx: RequestContext,
  user: User,
  account: Account,
  profile?: Profile,
  emailVerified: Date | null = null,
  also?: AlsoStore,
): Promise<StoredSignIn> {
  const adapter = ctx.config.adapter as TransactionalAdapter & WithAll<Adapter>
  const draft: AdapterUser = {
    id: user.id ?? randomUUID(),
    name: user.name ?? null,
    email: user.email ?? "",
    emailVerified,
    image: user.image ?? null,
  }
  const { userId: _ignored, ...unlinked } = account
  let created: AdapterUser
  try {
    created = await createAndLink(adapter, draft, unlinked as Omit<AdapterAccount, "userId">, also)
  } catch (error) {
    const raced = await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    if (raced) return { user: raced, isNewUser: false }
    throw error instanceof AdapterError ? error : new AdapterError("Creating the user failed", { cause: { err: error } })
  }
  await fireEvent(ctx.config, "createUser", { user: created })
  await fireEvent(ctx.config, "linkAccount", { user: created, account: { ...account, userId: created.id }, profile: profile ?? created })
  return { user: created, isNewUser: true }
}

/**
 * `authorize` is the source of truth for a credentials user: a stored user whose name or image
 * differ is updated (and `updateUser` fires). The email is left alone: changing it could collide
 * with another stored user.
 */
async function syncProfile(ctx: RequestContext, stored: AdapterUser, user: User): Promise<AdapterUser> {
  const changes: Partial<AdapterUser> = {}
  if (user.name !== undefined && user.name !== stored.name) changes.name = user.name
  if (user.image !== undefined && user.image !== stored.image) changes.image = user.image
  if (!Object.keys(changes).length || !ctx.config.adapter?.updateUser) return stored
  const updated = await ctx.config.adapter.updateUser({ id: stored.id, ...changes })
  await fireEvent(ctx.config, "updateUser", { user: updated })
  return updated
}

/** Same person by email: both present and equal, ignoring case. */
function sameEmail(a: string | null | undefined, b: string | null | undefined): boolean {
  return Boolean(a && b && a.toLowerCase() === b.toLowerCase())
}

/**
 * The stored user for a credentials sign-in when an adapter is configured, for the credentials id
 * `authorize` returned (required: without one, two people could end up sharing a stored user):
 * 1. the stored user already linked to this credentials id;
 * 2. else the stored user with that id, if it has the same email (many adapters pick their own
 *    ids, so an id alone may name someone else): the account gets linked;
 * 3. else the stored user with this email if nobody proved its address and it is not another
 *    credentials user: its other ways in and sessions are removed first (lib/linking, as with
 *    "reclaim"), so a squatter never locks the app's user out;
 * 4. else a new user, unless another stored user has this email (`AccountNotLinked`: never taken
 *    over).
 */
export async function credentialsUser(ctx: RequestContext, user: User, account: Account): Promise<StoredSignIn> {
  const adapter = ctx.config.adapter as WithAll<Adapter>
  if (!account.providerAccountId) {
    throw new CallbackRouteError(
      `authorize of provider "${account.provider}" returned a user without an id; with an adapter the id identifies the stored user, so it is required`,
    )
  }
  try {
    return await findOrCreate(ctx, adapter, user, account)
  } catch (error) {
    // A concurrent first sign-in of the same person may have stored and linked the user between
    // our lookups (our email check or link then fails): that user is this person.
    const linked = await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    if (linked) return { user: linked, isNewUser: false }
    throw error
  }
}

/** Links the credentials account to the stored user `stored` (`linkAccount` fires), with authorize's profile. */
async function linkCredentials(ctx: RequestContext, adapter: WithAll<Adapter>, stored: AdapterUser, user: User, account: Account): Promise<StoredSignIn> {
  const link = { ...account, userId: stored.id } as unknown as AdapterAccount
  await adapter.linkAccount(link)
  await fireEvent(ctx.config, "linkAccount", { user: stored, account: link, profile: stored })
  return { user: await syncProfile(ctx, stored, user), isNewUser: false }
}

async function findOrCreate(ctx: RequestContext, adapter: WithAll<Adapter>, user: User, account: Account): Promise<StoredSignIn> {
  const linked = await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
  if (linked) return { user: await syncProfile(ctx, linked, user), isNewUser: false }
  const byId = await adapter.getUser(account.providerAccountId)
  if (byId && sameEmail(byId.email, user.email)) return linkCredentials(ctx, adapter, byId, user, account)
  const byEmail = user.email ? await adapter.getUserByEmail(user.email) : null
  if (byEmail && !byEmail.emailVerified) {
    // Nobody proved that user's address (a passkey or password sign-up before this user's first
    // sign-in): the app's own user takes it back, and the squatter's ways in and sessions go.
    const claimed = await claimForAppUser(ctx, byEmail, account)
    if (!claimed.appOwned) return { ...(await linkCredentials(ctx, adapter, claimed.user, user, account)), reclaimed: claimed.reclaimed }
  }
  if (byEmail) {
    throw new AccountNotLinked(
      `Another stored user has the email of this credentials user; authorize should return that user's id (provider "${account.provider}")`,
    )
  }
  // The stored user keeps authorize's id, unless that id is already someone else's.
  return createUserWithAccount(ctx, byId ? { ...user, id: undefined } : user, account)
}

/**
 * The stored user of the request's live session, if any (lib/session/signed-in.ts: read as
 * `authSession` reads it, so a revoked, signed-out or expired session is nobody).
 */
export async function currentStoredUser(ctx: RequestContext): Promise<AdapterUser | null> {
  return (await signedIn(ctx))?.user ?? null
}

/** The address is proven now: `emailVerified` set (and `updateUser` fired). */
async function markVerified(ctx: RequestContext, user: AdapterUser): Promise<AdapterUser> {
  const updated = await (ctx.config.adapter as WithAll<Adapter>).updateUser({ id: user.id, emailVerified: new Date() })
  await fireEvent(ctx.config, "updateUser", { user: updated })
  return updated
}

/**
 * The stored user for an OAuth/OIDC sign-in. Identity is the (provider, account id) pair, never an
 * email alone. "Signed in" means: the session that started this sign-in is still the request's
 * session (a session cookie planted in the browser during the flow does not count).
 * - the account is linked already: its user (but if someone else is signed in, `OAuthAccountNotLinked`);
 * - someone is signed in: the account is linked to them;
 * - a stored user has the profile's email:
 *   - the provider does not vouch for it (lib/linking/email-trust.ts): `OAuthAccountNotLinked`,
 *     whatever `allowDangerousEmailAccountLinking` says;
 *   - nobody proved that user's address (and it is not the app's own credentials user): the
 *     vouched address proves it now, and the policy (`accountLinking.unverifiedEmail`) decides
 *     what becomes of the user's other methods;
 *   - else linked with `allowDangerousEmailAccountLinking`, `OAuthAccountNotLinked` without;
 * - otherwise a new user with the account, verified when the provider vouches for the address.
 */
export async function oauthUser(
  ctx: RequestContext,
  found: { user: User; account: Account; profile: Profile; startedBy?: string },
  provider: OAuthProviderConfig,
): Promise<StoredSignIn> {
  const adapter = ctx.config.adapter as WithAll<Adapter>
  const { account, profile } = found
  // Linking to the signed-in user: only the session that started this sign-in counts.
  const who = found.startedBy ? await signedIn(ctx) : null
  const current = who?.user && who.user.id === found.startedBy ? who.user : null
  const linked = await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
  if (linked) {
    if (current && current.id !== linked.id) {
      throw new OAuthAccountNotLinked(`This ${account.provider} account is linked to another user`)
    }
    return { user: linked, isNewUser: false }
  }
  const link = async (user: AdapterUser): Promise<StoredSignIn> => {
    const stored = { ...account, userId: user.id } as unknown as AdapterAccount
    await adapter.linkAccount(stored)
    await fireEvent(ctx.config, "linkAccount", { user, account: stored, profile })
    sendSecurityNotice(ctx, user, "methodLinked", { detail: provider.name })
    return { user, isNewUser: false }
  }
  if (current && who) {
    // A new way in for this account: only from a recent sign-in (issue #24).
    await assertRecentSignIn(ctx.config, who, `Linking ${account.provider} to the account`)
    return link(current)
  }
  const email = found.user.email
  const vouched = Boolean(email) && (await providerVouchesForEmail(provider, profile, account as unknown as TokenSet))
  const byEmail = email ? await adapter.getUserByEmail(email) : null
  if (byEmail) {
    if (!vouched) {
      throw new OAuthAccountNotLinked(`A user with this email exists and ${account.provider} does not vouch for the address; sign in the way you did first, then link ${account.provider}`)
    }
    if (!byEmail.emailVerified) {
      const claimed = await claimProvenAddress(ctx, byEmail, account)
      if (!claimed.appOwned) {
        const linkedNow = await link(await markVerified(ctx, claimed.user))
        return { ...linkedNow, reclaimed: claimed.reclaimed }
      }
    }
    if (provider.allowDangerousEmailAccountLinking === true) return link(byEmail)
    throw new OAuthAccountNotLinked(`A user with this email exists; sign in the way you did first, then link ${account.provider}`)
  }
  // The stored user gets an id of its own; the provider's id is the account's.
  try {
    return await createUserWithAccount(ctx, { ...found.user, id: undefined }, account, profile, vouched ? new Date() : null)
  } catch (error) {
    if (!(error instanceof AdapterError)) throw error
    throw new OAuthCreateAccount(`The user for a new ${account.provider} account could not be stored`, { cause: { err: error } })
  }
}

/**
 * The stored user for an email sign-in (the link proved the address): the user with that email,
 * marked verified now (`updateUser`), with the email account linked if it was not, after the
 * policy for a user whose address nobody had proved (lib/linking/unproven-user.ts); or a new,
 * verified user with the account.
 */
export async function emailUser(ctx: RequestContext, identifier: string, stored: AdapterUser | null, account: Account): Promise<StoredSignIn> {
  const adapter = ctx.config.adapter as WithAll<Adapter>
  if (!stored) return createUserWithAccount(ctx, { email: identifier }, account, undefined, new Date())
  const claimed = await claimProvenAddress(ctx, stored, account)
  const user = await markVerified(ctx, claimed.user)
  if (!(await adapter.getUserByAccount({ provider: account.provider, providerAccountId: account.providerAccountId }))) {
    const link = { ...account, userId: user.id } as unknown as AdapterAccount
    await adapter.linkAccount(link)
    await fireEvent(ctx.config, "linkAccount", { user, account: link, profile: user })
  }
  return { user, isNewUser: false, reclaimed: claimed.reclaimed }
}
