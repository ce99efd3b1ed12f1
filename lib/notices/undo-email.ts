/**
 * Using the undo link of an email change (issue #24): the account gets the old address back (it
 * is proven: the link came to it), the email sign-in account follows it, and every session of the
 * user ends, cookie and database strategies alike, so whoever changed the address is signed out
 * and what they did with the new address no longer reaches the account. Refused (`Verification`)
 * when the link was used already, expired or is forged, or when another user has the old address now.
 */
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../core/context.js"
import { fireEvent } from "../core/events.js"
import { Verification } from "../errors.js"
import { accountAdapter } from "../account/user.js"
import { endUserSessions } from "../devices/revoke-user.js"
import { audit } from "../audit/emit.js"
import { consumeUndoToken } from "./undo-link.js"
import { endLinks } from "../password/links.js"
import { isPasswordProvider } from "../password/actions/common.js"

export async function undoEmailChange(ctx: RequestContext, uid: unknown, email: unknown, token: unknown): Promise<AdapterUser> {
  if (typeof uid !== "string" || typeof email !== "string" || typeof token !== "string") throw new Verification("The undo link is incomplete")
  if (!(await consumeUndoToken(ctx.config, uid, email, token))) throw new Verification("The undo link was used already, has expired, or never existed")
  const adapter = accountAdapter(ctx.config)
  const found = await adapter.getUser(uid)
  if (!found) throw new Verification("The user of this undo link is gone")
  const holder = await adapter.getUserByEmail(email)
  if (holder && holder.id !== found.id) throw new Verification("Another user has the old address now")
  const changedTo = found.email
  const user = await adapter.updateUser({ id: found.id, email, emailVerified: new Date() })
  for (const account of await adapter.listAccountsByUserId(user.id)) {
    if (account.type !== "email" || account.providerAccountId !== changedTo) continue
    await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    await adapter.linkAccount({ ...account, providerAccountId: email })
  }
  // Reset links mailed to the address being undone no longer reach the account.
  if (ctx.config.providers.list.some(isPasswordProvider)) await endLinks(ctx.config, "reset", user.id)
  // Every session of the user ends, on every process (the one that changed the address too).
  await endUserSessions(ctx.config, user.id)
  await fireEvent(ctx.config, "updateUser", { user })
  audit(ctx.config, { type: "email.changed", userId: user.id })
  return user
}
