/**
 * Security notices as a capability (lib/core/capability.ts): the mails that tell a person a way
 * into their account was added or changed (option `notices`), with the undo link some of them
 * carry. It has no route of its own (the undo link is answered under the account page).
 */
import type { Capability } from "../core/capability.js"

export const notices: Capability = {
  name: "notices",
}
