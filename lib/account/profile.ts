/** Changing the signed-in user's name (`updateUser`, and the `updateUser` event). */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { announce } from "../devices/runtime.js"
import { InvalidRequest } from "../errors.js"
import { accountAdapter, type AccountHolder } from "./user.js"

export const MAX_NAME_LENGTH = 100

/** A display name: trimmed, NFC, 1 to 100 characters, no control characters. */
export function validName(value: unknown): string {
  const name = typeof value === "string" ? value.normalize("NFC").trim() : ""
  // eslint-disable-next-line no-control-regex
  if (!name || [...name].length > MAX_NAME_LENGTH || /[\x00-\x1f\x7f]/.test(name)) {
    throw new InvalidRequest(`The name must be 1 to ${MAX_NAME_LENGTH} characters, without control characters`)
  }
  return name
}

export async function changeName(config: ResolvedConfig, holder: AccountHolder, value: unknown): Promise<void> {
  const name = validName(value)
  if (name === holder.user.name) return
  const user = await accountAdapter(config).updateUser({ id: holder.user.id, name })
  // Database sessions cached on any process show the user as read then: drop them (pub/sub).
  await announce(config, { user: user.id, notBefore: 0 })
  await fireEvent(config, "updateUser", { user })
}
