/**
 * Bot protection as a capability (lib/core/capability.ts, issue #33): a challenge on the doors
 * bots use (check.ts, called by the sign-up, email sign-in, forgot-password and sign-in actions).
 * ALTCHA by default (a self-hosted proof of work: `altcha-lib`), or a vendor (Turnstile, hCaptcha,
 * reCAPTCHA v3) verified server-side through the outbound transport.
 * - `GET bot-challenge` (JSON): a new ALTCHA challenge for the widget;
 * - `GET bot-widget` (JavaScript): the ALTCHA widget, served by this router (no third party).
 * With the option off both answer `UnknownAction`-like 404s and every check is a no-op.
 */
import { lazy, type Capability } from "../core/capability.js"
import type { TextsOf } from "../i18n/text-types.js"
import { botProtectionTexts } from "./texts/index.js"
import { resolveBotProtection, type BotProtectionOptions, type ResolvedBotProtection } from "./options.js"
import { formChallengeSource } from "./widget.js"

export const BOT_AUDIT_TYPES = ["bot.refused", "bot.unavailable"] as const

declare module "../types.js" {
  interface CapabilityActions {
    "bot-challenge": true
    "bot-widget": true
  }
  interface CapabilityConfigOptions {
    /** A challenge on sign-up, email sign-in, forgot-password and repeated sign-in failures (off by default). docs/bot-protection.md. */
    botProtection?: boolean | BotProtectionOptions
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** Bot protection (issue #33); undefined when off. */
    readonly botProtection?: ResolvedBotProtection
  }
}

declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof botProtectionTexts.en> {}
}

declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof BOT_AUDIT_TYPES)[number], true> {}
}

export const botProtection: Capability = {
  name: "botProtection",
  texts: botProtectionTexts,
  auditTypes: BOT_AUDIT_TYPES,
  options: {
    names: ["botProtection"],
    resolve: (config) => {
      const resolved = resolveBotProtection(config.botProtection)
      // The guarded forms get their widget through a generic hook (the pages import no capability).
      return { botProtection: resolved, ...(resolved && { formChallenge: formChallengeSource(resolved) }) }
    },
  },
  routes: {
    "bot-challenge": {
      GET: { handler: lazy(() => import("./altcha/challenge.js"), "botChallengeGet"), api: true },
    },
    "bot-widget": {
      GET: { handler: lazy(() => import("./altcha/widget.js"), "botWidgetGet"), api: true, head: true },
    },
  },
  outcomes: {
    BotChallengeFailed: { page: "signIn", status: 400 },
    BotCheckUnavailable: { page: "signIn", status: 503 },
  },
}
