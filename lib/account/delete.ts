/**
 * Deleting the signed-in user's account (the caller checked the recent sign-in, issue #24:
 * lib/session/assurance.ts), through the adapter (`deleteUser` removes the user's accounts,
 * sessions, passkeys and sign-in tokens), every session of the user ended on every process
 * (cookie sessions too), and the `deleteUser` event. With organizations on, the only owner of an
 * organization with other members is refused (`LastOwner`) before anything is deleted.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { endUserSessions } from "../devices/revoke-user.js"
import { endUndoTokens } from "../notices/undo-link.js"
import { accountAdapter, type AccountHolder } from "./user.js"
import { deleteOrganizationsOf, organizationsOwnedAlone } from "../organizations/leaving-user.js"

export async function deleteUserAccount(config: ResolvedConfig, holder: AccountHolder): Promise<void> {
  const { user } = holder
  // Never an organization without an owner (issue #27): refused, or deleted with its only member.
  const alone = await organizationsOwnedAlone(config, user.id)
  await accountAdapter(config).deleteUser(user.id)
  await deleteOrganizationsOf(config, user.id, alone)
  // The undo links of earlier email changes name the user only by a hash: ended here too.
  await endUndoTokens(config, user.id)
  await endUserSessions(config, user.id)
  await fireEvent(config, "deleteUser", { user })
}
