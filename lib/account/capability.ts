/**
 * The account page as a capability (lib/core/capability.ts): `GET account` (the page, and
 * `account/confirm-email` and `account/undo-email`, the pages the mailed links open) and
 * `POST account/<action>` (its forms: name, email, confirm-email, undo-email, unlink,
 * passkey-remove, passkey-rename, delete; the handler checks the segment). The logic beside it in
 * this folder is shared with the server helpers `unlinkAccount` and `deleteAccount`.
 */
import { lazy, type Capability } from "../core/capability.js"
import { accountTexts } from "./texts/index.js"
import { ACCOUNT_AUDIT_EVENTS, ACCOUNT_AUDIT_TYPES } from "./audit.js"
import type { TextsOf } from "../i18n/text-types.js"
import type { AdapterAccount, AdapterUser } from "../adapters.js"
import type { Awaitable } from "../base-types.js"

// Its action joins `AuthAction`, and its events `EventCallbacks`, from here.
declare module "../types.js" {
  interface CapabilityActions {
    account: true
  }
  interface CapabilityPages {
    /** The account page (`GET <base>/account`): signed-in visitors are sent to this page instead. */
    account?: string
    /**
     * The app's home page: the account page's header links back to it (default: the callback URL
     * the account page was opened for, else the site's root).
     */
    home?: string
  }
}

declare module "../callbacks.js" {
  interface CapabilityEvents {
    /** An account was unlinked from the user (the account page, `unlinkAccount`). */
    unlinkAccount?: (message: { user: AdapterUser; account: AdapterAccount }) => Awaitable<void>
    /** The user deleted their account (the account page, `deleteAccount`); the user as it was. */
    deleteUser?: (message: { user: AdapterUser }) => Awaitable<void>
  }
}

// Its texts' keys join `MessageKey` from here.
declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof accountTexts.en> {}
}

// Its audit record types join `AuditType` from here (the list is in audit.ts).
declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof ACCOUNT_AUDIT_TYPES)[number], true> {}
}

export const account: Capability = {
  name: "account",
  texts: accountTexts,
  events: ["unlinkAccount", "deleteUser"],
  auditTypes: ACCOUNT_AUDIT_TYPES,
  auditEvents: ACCOUNT_AUDIT_EVENTS,
  options: { pages: ["account", "home"] },
  routes: {
    account: {
      GET: { handler: lazy(() => import("./actions/page.js"), "accountPage"), head: true },
      POST: { handler: lazy(() => import("./actions/post.js"), "accountAction"), csrf: true },
    },
  },
  subPaths: ["account"],
  outcomes: {
    // No adapter: no users to manage.
    AccountPageUnavailable: { page: "error", status: 501 },
    LastSignInMethod: { status: 409, message: { text: "This is your only way to sign in, so it cannot be removed. Add another one first." } },
    SignInMethodNotFound: { status: 404, message: { text: "That sign-in method is not part of your account." } },
  },
}
