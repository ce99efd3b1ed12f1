/**
 * One-time email codes as a capability (lib/core/capability.ts): an email provider with `code`
 * mails a code beside the magic link, for a person reading the mail on another device; the code
 * is typed on the verify-request page and checked by the email callback (callback.ts), bound to
 * the browser that asked for it (pending.ts). It has no route of its own: it rides on the spec's
 * `signin` and `callback` actions of the email provider.
 */
import type { Capability } from "../core/capability.js"
import { emailCodesTexts } from "./texts/index.js"
import type { TextsOf } from "../i18n/text-types.js"
import { assertCodeOptions } from "./options.js"

// Its texts' keys join `MessageKey` from here.
declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof emailCodesTexts.en> {}
}

export const emailCodes: Capability = {
  name: "email-codes",
  texts: emailCodesTexts,
  // An email provider's `code` (and `confirm`), checked at start-up.
  options: {
    checkProvider: (provider, path) => {
      if (provider.type === "email") assertCodeOptions(provider, path)
    },
  },
  outcomes: {
    // A wrong code is typed again on the page it came from; the others need a new email.
    EmailCodeInvalid: { page: "verifyRequest", status: 400, message: { key: "verify.error.EmailCodeInvalid" } },
    EmailCodeExpired: { page: "signIn", status: 400 },
    EmailCodeLocked: { page: "signIn", status: 400 },
    EmailCodeNotBound: { page: "signIn", status: 400 },
  },
}
