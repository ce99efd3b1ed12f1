/**
 * SCIM 2.0 provisioning as a capability (lib/core/capability.ts, issue #29): an organization's
 * directory (Okta, Entra ID, Google, OneLogin) creates, updates and removes its members.
 * - `<base>/scim/v2/<organization id>/...` (deep paths; GET, POST, PUT, PATCH, DELETE): `Users`,
 *   `Groups`, `ServiceProviderConfig`, `ResourceTypes`, `Schemas`; a bearer token of that
 *   organization (never a session, never a CSRF token); every answer, errors included, in SCIM's
 *   format (actions/protocol.ts); the handler reads the body itself, so even a body the core would
 *   refuse is answered as a SCIM error.
 * - `POST scim-admin/<create-token|revoke-token|group-role>` (CSRF, a recent sign-in,
 *   `organization:update`): its tokens and its groups' roles, from the organization page.
 * With the option off every path answers `UnknownAction`-like 404.
 */
import { lazy, type Capability } from "../core/capability.js"
import type { TextsOf } from "../i18n/text-types.js"
import { scimTexts } from "./texts/index.js"
import { SCIM_ADAPTER_METHODS } from "./adapter.js"
import { SCIM_AUDIT_TYPES } from "./audit.js"
import { resolveScim, type ResolvedScim, type ScimOptions } from "./options.js"

declare module "../types.js" {
  interface CapabilityActions {
    scim: true
    "scim-admin": true
  }
  interface CapabilityConfigOptions {
    /** SCIM 2.0 provisioning (needs `organizations`): `true`, or `{ maxResults, rateLimit }`. docs/scim.md. */
    scim?: boolean | ScimOptions
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** SCIM provisioning (issue #29); undefined when off. */
    readonly scim?: ResolvedScim
  }
}

declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof scimTexts.en> {}
}

declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof SCIM_AUDIT_TYPES)[number], true> {}
}

const protocol = { handler: lazy(() => import("./actions/protocol.js"), "scimProtocol"), api: true, ownBody: true }

export const scim: Capability = {
  name: "scim",
  texts: scimTexts,
  adapterMethods: SCIM_ADAPTER_METHODS,
  auditTypes: SCIM_AUDIT_TYPES,
  options: {
    names: ["scim"],
    resolve: (config, { adapter }) => ({ scim: resolveScim(config.scim, adapter, config.organizations !== undefined && (config.organizations as unknown) !== false) }),
  },
  routes: {
    scim: { GET: protocol, POST: protocol, PUT: protocol, PATCH: protocol, DELETE: protocol },
    "scim-admin": {
      POST: { handler: lazy(() => import("./actions/admin.js"), "scimAdmin"), csrf: true },
    },
  },
  subPaths: ["scim", "scim-admin"],
  deepPaths: ["scim"],
}
