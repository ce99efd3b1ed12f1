/**
 * Organizations as a capability (lib/core/capability.ts, issue #27): organizations, members,
 * invitations, roles and permissions, and the organization the signed-in user acts for
 * (`auth.organization`, added to every session read: session-fact.ts).
 * - `GET organizations` (JSON): the user's memberships and the active one;
 *   `GET organizations/<id>` (JSON): one organization, its members and (for those who may invite)
 *   its pending invitations;
 * - `POST organizations/<action>` (CSRF-protected; JSON, or a form that goes back to its page):
 *   create, update, delete, switch, leave, transfer, remove-member, role, invite,
 *   resend, revoke, accept, decline, set-role, delete-role (actions/post.ts);
 * - `GET organization[/<slug>]`: the organization page; `GET invitation?token=`: the invitation page.
 * With the option off every path answers `OrganizationsUnavailable`.
 */
import { lazy, type Capability } from "../core/capability.js"
import type { TextsOf } from "../i18n/text-types.js"
import type { Awaitable } from "../base-types.js"
import { organizationsTexts } from "./texts/index.js"
import { ORGANIZATION_ADAPTER_METHODS } from "./adapter.js"
import { ORGANIZATION_AUDIT_EVENTS, ORGANIZATION_AUDIT_TYPES } from "./audit.js"
import { resolveOrganizations, type OrganizationsOptions, type ResolvedOrganizations } from "./options.js"
import type { OrganizationEvent } from "./events.js"
import type { ActiveOrganization } from "./memberships.js"

declare module "../types.js" {
  interface CapabilityActions {
    organizations: true
    organization: true
    invitation: true
  }
  interface CapabilityConfigOptions {
    /**
     * Organizations, members, invitations, roles and permissions (off by default): `true`, or
     * `{ roles, customRoles, allowCreate, invitationMaxAge, defaultRole, sendInvitation }`.
     * docs/organizations.md.
     */
    organizations?: boolean | OrganizationsOptions
  }
}

declare module "../base-types.js" {
  interface DefaultSession {
    /**
     * With organizations on: the organization the user acts for, with their role and permissions
     * there; null for a user in no organization. Set by Gatehouse after the `session` callback.
     */
    organization?: ActiveOrganization | null
  }
}

declare module "../callbacks.js" {
  interface CapabilityEvents {
    /** Every change to an organization, its members, invitations or roles; `type` says which (the audit record's type). */
    organization?: (message: OrganizationEvent) => Awaitable<void>
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** Organizations (issue #27); undefined when off. */
    readonly organizations?: ResolvedOrganizations
  }
}

declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof organizationsTexts.en> {}
}

declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof ORGANIZATION_AUDIT_TYPES)[number], true> {}
}

export const organizations: Capability = {
  name: "organizations",
  texts: organizationsTexts,
  adapterMethods: ORGANIZATION_ADAPTER_METHODS,
  events: ["organization"],
  auditTypes: ORGANIZATION_AUDIT_TYPES,
  auditEvents: ORGANIZATION_AUDIT_EVENTS,
  options: {
    names: ["organizations"],
    resolve: (config, { adapter, providers }) => {
      const resolved = resolveOrganizations(config.organizations, adapter, providers)
      return { organizations: resolved, sessionFacts: resolved?.attach }
    },
  },
  routes: {
    organizations: {
      GET: { handler: lazy(() => import("./actions/list.js"), "organizationsGet"), api: true },
      POST: { handler: lazy(() => import("./actions/post.js"), "organizationsPost"), csrf: true },
    },
    organization: {
      GET: { handler: lazy(() => import("./actions/page.js"), "organizationPage"), head: true },
    },
    invitation: {
      GET: { handler: lazy(() => import("./actions/invitation-page.js"), "invitationPage"), head: true },
    },
  },
  subPaths: ["organizations", "organization"],
  // Every refusal has an error page (HTML never gets raw JSON); the organization page explains its
  // forms' refusals in place (actions/post.ts).
  outcomes: {
    OrganizationRequired: { page: "error", status: 403 },
    PermissionDenied: { page: "error", status: 403 },
    OrganizationNotFound: { page: "error", status: 404 },
    MemberNotFound: { page: "error", status: 404, message: { text: "That user is not a member of this organization." } },
    LastOwner: { page: "error", status: 409, message: { text: "An organization needs at least one owner. Make another member an owner first." } },
    SlugTaken: { page: "error", status: 409, message: { text: "Another organization has this slug." } },
    AlreadyMember: { page: "error", status: 409, message: { text: "That person is a member of this organization already." } },
    UnknownRole: { page: "error", status: 400, message: { text: "That is not a role of this organization." } },
    RoleInUse: { page: "error", status: 409, message: { text: "Members hold this role: give them another role first." } },
    InvitationInvalid: { page: "error", status: 410 },
    InvitationMismatch: { page: "error", status: 403 },
    OrganizationsUnavailable: { page: "error", status: 404 },
  },
}
