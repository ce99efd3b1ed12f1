/**
 * Deleting the signed-in user's account: only after a recent sign-in (the session's `authTime`
 * within `RECENT_SIGN_IN_SECONDS`; otherwise `RecentSignInRequired`, and the page sends the person
 * to sign in again), then through the adapter (`deleteUser` removes the user's accounts, sessions,
 * passkeys and sign-in tokens), every session of the user ended on every process (cookie
 * sessions too), and the `deleteUser` event.
 */
import type { ResolvedConfig } from "../core/config/resolve.js"
import { fireEvent } from "../core/events.js"
import { RecentSignInRequired } from "../errors.js"
import { listUserSessions } from "../sessions/list.js"
import { endUserSessions } from "../sessions/revoke-user.js"
import { accountAdapter, type AccountHolder } from "./user.js"

/** How recent a sign-in must be to delete the account. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60

/**
 * When the user last signed in (ms), if it can be told: the session's `authTime` (issue #16), which
 * a refreshed session or a cookie that is given a session id keeps; for a session without it
 * (made before #16), when the session started.
 */
async function signedInAt(config: ResolvedConfig, holder: AccountHolder): Promise<number | undefined> {
  if (holder.identity.authTime !== undefined) return holder.identity.authTime * 1000
  if (holder.identity.createdAt !== undefined) return holder.identity.createdAt
  const current = (await listUserSessions(config, holder.identity).catch(() => [])).find((session) => session.current)
  return current?.createdAt ? Date.parse(current.createdAt) : undefined
}

export async function assertRecentSignIn(config: ResolvedConfig, holder: AccountHolder, now = Date.now()): Promise<void> {
  const at = await signedInAt(config, holder)
  if (at === undefined || now - at > RECENT_SIGN_IN_SECONDS * 1000) {
    throw new RecentSignInRequired(`Deleting the account needs a sign-in within the last ${RECENT_SIGN_IN_SECONDS / 60} minutes`)
  }
}

export async function deleteUserAccount(config: ResolvedConfig, holder: AccountHolder): Promise<void> {
  await assertRecentSignIn(config, holder)
  const { user } = holder
  await accountAdapter(config).deleteUser(user.id)
  await endUserSessions(config, user.id)
  await fireEvent(config, "deleteUser", { user })
}
