/**
 * Security notices as a capability (lib/core/capability.ts): the mails that tell a person a way
 * into their account was added or changed (option `notices`), with the undo link some of them
 * carry. It has no route of its own (the undo link is answered under the account page).
 */
import type { Capability } from "../core/capability.js"
import { noticesTexts } from "./texts/index.js"
import type { TextsOf } from "../i18n/text-types.js"
import { resolveNotices, type NoticesOptions, type ResolvedNotices } from "./options.js"

// Its option joins `AuthConfig` from here.
declare module "../types.js" {
  interface CapabilityConfigOptions {
    /**
     * Security notices by mail (password changed, email changed with an undo link, two-factor or
     * passkey changes, a new sign-in method): `{ sendMail?, undoWindow? }`, or `false`. Default: sent
     * through the email provider's server. README, "Security notices".
     */
    notices?: NoticesOptions | false
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** Security notices by mail and the email change's undo window (issue #24). */
    readonly notices: ResolvedNotices
  }
}

// Its texts' keys join `MessageKey` from here.
declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof noticesTexts.en> {}
}

export const notices: Capability = {
  name: "notices",
  texts: noticesTexts,
  options: {
    names: ["notices"],
    resolve: (config, { adapter, providers, warnOnce }) => ({ notices: resolveNotices(config.notices, providers, Boolean(adapter), warnOnce) }),
  },
}
