/**
 * The admin and support tools as a capability (lib/core/capability.ts, issue #30): finding users,
 * their view, creating and changing them, bans, ending sessions, removing a lost second factor,
 * password-reset mails, deleting, and impersonation, each by an admin with a recent sign-in and
 * audited with the admin and the user.
 * - `GET admin` (the admin page: search and the user list; JSON `{ users, next }` for API calls),
 *   `GET admin/<userId>` (the user's page; JSON: their details);
 * - `POST admin/<action>` (CSRF-protected; JSON, or a form that goes back to its page):
 *   create-user, update-user, ban, unban, revoke-sessions, remove-two-factor, send-password-reset,
 *   delete-user, impersonate, stop-impersonating (actions/post.ts).
 * With the option off every path answers `AdminUnavailable`.
 */
import { lazy, type Capability } from "../core/capability.js"
import type { TextsOf } from "../i18n/text-types.js"
import type { Awaitable } from "../base-types.js"
import { adminTexts } from "./texts/index.js"
import { ADMIN_ADAPTER_METHODS } from "./adapter.js"
import { ADMIN_AUDIT_EVENTS, ADMIN_AUDIT_TYPES } from "./audit.js"
import { resolveAdmin, type AdminOptions, type ResolvedAdmin } from "./options.js"
import type { AdminEvent } from "./events.js"
import type { ImpersonatedBy } from "./impersonation/facts.js"
import { impersonationBanner } from "./impersonation/banner.js"
import type { Messages } from "../i18n/index.js"

declare module "../types.js" {
  interface CapabilityActions {
    admin: true
  }
  interface CapabilityConfigOptions {
    /**
     * The admin and support tools (off by default): who is an admin (`userIds`, `organization`
     * with `role` or `permission`, `isAdmin`), `impersonation`, `pageSize`, `auditRecords`.
     * docs/admin.md.
     */
    admin?: AdminOptions
  }
}

declare module "../base-types.js" {
  interface DefaultSession {
    /** While an admin impersonates this user (issue #30): the admin, and when it ends. Set by Gatehouse; no callback changes it. */
    impersonatedBy?: ImpersonatedBy
  }
}

declare module "../callbacks.js" {
  interface CapabilityEvents {
    /** Every admin action; `type` says which (the audit record's type). */
    admin?: (message: AdminEvent) => Awaitable<void>
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** The admin tools (issue #30); undefined when off. */
    readonly admin?: ResolvedAdmin
  }
}

declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof adminTexts.en> {}
}

declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof ADMIN_AUDIT_TYPES)[number], true> {}
}

export const admin: Capability = {
  name: "admin",
  texts: adminTexts,
  adapterMethods: ADMIN_ADAPTER_METHODS,
  events: ["admin"],
  auditTypes: ADMIN_AUDIT_TYPES,
  auditEvents: ADMIN_AUDIT_EVENTS,
  options: {
    names: ["admin"],
    resolve: (config, { adapter }) => {
      const resolved = resolveAdmin(config, adapter)
      // Every built-in page shows the banner while this browser impersonates someone.
      return { admin: resolved, ...(resolved?.impersonation && { pageBanner: (ctx, messages, tag) => impersonationBanner(ctx, messages as Messages, tag) }) }
    },
  },
  routes: {
    admin: {
      GET: { handler: lazy(() => import("./actions/get.js"), "adminGet"), head: true },
      POST: { handler: lazy(() => import("./actions/post.js"), "adminPost"), csrf: true },
    },
  },
  subPaths: ["admin"],
  // Every refusal has an error page (HTML never gets raw JSON); the user page explains its forms'
  // refusals in place (actions/post.ts).
  outcomes: {
    AdminRequired: { page: "error", status: 403 },
    AdminUnavailable: { page: "error", status: 404 },
    UserNotFound: { page: "error", status: 404 },
    EmailInUse: { page: "error", status: 409 },
    UserBanned: { page: "error", status: 403 },
    ImpersonationDenied: { page: "error", status: 403 },
    ImpersonationRestricted: { page: "error", status: 403 },
    NotImpersonating: { page: "error", status: 409 },
  },
}
