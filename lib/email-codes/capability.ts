/**
 * One-time email codes as a capability (lib/core/capability.ts): an email provider with `code`
 * mails a code beside the magic link, for a person reading the mail on another device; the code
 * is typed on the verify-request page and checked by the email callback (callback.ts), bound to
 * the browser that asked for it (pending.ts). It has no route of its own: it rides on the spec's
 * `signin` and `callback` actions of the email provider.
 */
import type { Capability } from "../core/capability.js"

export const emailCodes: Capability = {
  name: "email-codes",
}
