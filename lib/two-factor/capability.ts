/**
 * Two-factor sign-in as a capability (lib/core/capability.ts, issue #16): the second step of an
 * enrolled user's sign-in (`GET`/`POST two-factor`) and enrolment and management
 * (`GET`/`POST two-factor/setup`), with the outcomes of the errors only it throws. The logic beside
 * it in this folder (TOTP, recovery codes, the pending sign-in, the gate the callback asks) is
 * shared with the sign-in callback (lib/actions/callback/login.ts). With the `twoFactor` option off
 * both paths answer `UnknownAction` (the handlers check it).
 */
import { lazy, type Capability } from "../core/capability.js"
import { twoFactorTexts } from "./texts/index.js"
import type { TextsOf } from "../i18n/text-types.js"
import { TWO_FACTOR_ADAPTER_METHODS } from "./adapter.js"
import { resolveTwoFactor, type ResolvedTwoFactor, type TwoFactorOptions } from "./options.js"
import type { TwoFactorChallengeMessage } from "./events.js"
import { TWO_FACTOR_AUDIT_EVENTS, TWO_FACTOR_AUDIT_TYPES } from "./audit.js"
import type { Awaitable } from "../base-types.js"

// Its action joins `AuthAction`, its option `AuthConfig`, and its events `EventCallbacks` from here.
declare module "../types.js" {
  interface CapabilityActions {
    "two-factor": true
  }
  interface CapabilityConfigOptions {
    /**
     * Two-factor sign-in (TOTP with recovery codes): `{ issuer, required? }`. Enrolled users pass a
     * code after their first factor at `<basePath>/two-factor`. README, "Two-factor sign-in".
     */
    twoFactor?: TwoFactorOptions
  }
}

declare module "../callbacks.js" {
  interface CapabilityEvents {
    /** The user turned two-factor sign-in on (a first code confirmed). */
    twoFactorEnabled?: (message: { userId: string }) => Awaitable<void>
    /** The user turned two-factor sign-in off (with a current code or a recovery code). */
    twoFactorDisabled?: (message: { userId: string }) => Awaitable<void>
    /** A second factor was tried: its method and outcome ("success", or the error type). */
    twoFactorChallenge?: (message: TwoFactorChallengeMessage) => Awaitable<void>
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** Two-factor sign-in (issue #16); undefined when off. */
    readonly twoFactor?: ResolvedTwoFactor
  }
}

// Its texts' keys join `MessageKey` from here.
declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof twoFactorTexts.en> {}
}

// Its audit record types join `AuditType` from here (the list is in audit.ts).
declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof TWO_FACTOR_AUDIT_TYPES)[number], true> {}
}

export const twoFactor: Capability = {
  name: "two-factor",
  texts: twoFactorTexts,
  adapterMethods: TWO_FACTOR_ADAPTER_METHODS,
  events: ["twoFactorEnabled", "twoFactorDisabled", "twoFactorChallenge"],
  auditTypes: TWO_FACTOR_AUDIT_TYPES,
  auditEvents: TWO_FACTOR_AUDIT_EVENTS,
  options: {
    names: ["twoFactor"],
    resolve: (config, { adapter, production, warnOnce }) => {
      // Its single-use state (a code's step, a pending sign-in, the code tries) is shared only through `store`.
      if (production && config.store === undefined && config.twoFactor !== undefined && (config.twoFactor as unknown) !== false) warnOnce("two-factor-store-local")
      return { twoFactor: resolveTwoFactor(config.twoFactor, adapter) }
    },
  },
  routes: {
    // `two-factor` (the challenge) and `two-factor/setup` (enrolment and management): the handlers check the second segment.
    "two-factor": {
      GET: { handler: lazy(() => import("./actions/index.js"), "twoFactorGet") },
      POST: { handler: lazy(() => import("./actions/index.js"), "twoFactorPost"), csrf: true },
    },
  },
  subPaths: ["two-factor"],
  outcomes: {
    // The two-factor pages show the code errors themselves (JSON clients and other pages get these);
    // an expired pending sign-in or enrolment form starts over on the sign-in page.
    TwoFactorCodeInvalid: { page: "signIn", status: 400 },
    TwoFactorCodeReplayed: { page: "signIn", status: 400 },
    RecoveryCodeUsed: { page: "signIn", status: 400 },
    TwoFactorExpired: { page: "signIn", status: 400 },
  },
}
