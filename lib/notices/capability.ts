/**
 * Security notices as a capability (lib/core/capability.ts): the mails that tell a person a way
 * into their account was added or changed (option `notices`), with the undo link some of them
 * carry. It has no route of its own (the undo link is answered under the account page).
 */
import type { Capability } from "../core/capability.js"
import { noticesTexts } from "./texts/index.js"
import { resolveNotices, type ResolvedNotices } from "./options.js"

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** Security notices by mail and the email change's undo window (issue #24). */
    readonly notices: ResolvedNotices
  }
}

export const notices: Capability = {
  name: "notices",
  texts: noticesTexts,
  options: { resolve: (config, { adapter, providers, warnOnce }) => ({ notices: resolveNotices(config.notices, providers, Boolean(adapter), warnOnce) }) },
}
