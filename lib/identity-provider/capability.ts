/**
 * Gatehouse as an identity provider (issue #32): an OAuth 2.1 / OpenID Connect authorization
 * server for the app's own clients (a mobile app, a CLI, a second web app, partners' services, MCP
 * clients), built on `oidc-provider` and signing users in with Gatehouse's own session and pages.
 * - `<base>/oidc/...` (the `path` option): the provider itself, handed the raw request (mount.ts):
 *   discovery, JWKS, authorization, token, userinfo, introspection, revocation, device flow,
 *   end session, registration;
 * - `GET|POST <base>/oidc-interaction/<uid>`: the sign-in and consent steps (actions/interaction.ts);
 * - `GET <base>/connected-apps`, `POST <base>/connected-apps/revoke`: the user's apps (actions/apps.ts);
 * - `requireAuth(config, { accessToken })` takes the access tokens it issued (guard.ts).
 * `oidc-provider` is imported on the first request that needs it, never at start-up.
 */
import { lazy, type Capability } from "../core/capability.js"
import type { TextsOf } from "../i18n/text-types.js"
import type { Awaitable } from "../base-types.js"
import { identityProviderTexts } from "./texts/index.js"
import { OIDC_ADAPTER_METHODS } from "./adapter.js"
import { IDENTITY_PROVIDER_AUDIT_EVENTS, IDENTITY_PROVIDER_AUDIT_TYPES } from "./audit.js"
import { resolveOidcProvider, type OidcProviderOptions, type ResolvedOidcProvider } from "./options.js"
import type { IdentityProviderEvent } from "./events.js"
import type { AccessTokenFact } from "./access-token.js"
import { identityProviderMount } from "./mount-route.js"

declare module "../types.js" {
  interface CapabilityActions {
    "oidc-interaction": true
    "connected-apps": true
  }
  interface CapabilityConfigOptions {
    /**
     * Gatehouse as an OAuth 2.1 / OpenID Connect identity provider (off by default), at
     * `<base>/oidc`: `true`, or `{ clients, resources, registration, scopes, claims, ... }`.
     * Needs the `oidc-provider` package. docs/identity-provider.md.
     */
    oidcProvider?: boolean | OidcProviderOptions
  }
}

declare module "../base-types.js" {
  interface DefaultSession {
    /** Set when `requireAuth({ accessToken })` let the request in with an access token the provider issued. */
    accessToken?: AccessTokenFact
  }
}

declare module "../callbacks.js" {
  interface CapabilityEvents {
    /** The identity provider: consent given or refused, an app revoked, a client created, rotated or deleted. */
    oidcProvider?: (message: IdentityProviderEvent) => Awaitable<void>
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** The identity provider (issue #32); undefined when off. */
    readonly oidcProvider?: ResolvedOidcProvider
  }
}

declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof identityProviderTexts.en> {}
}

declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof IDENTITY_PROVIDER_AUDIT_TYPES)[number], true> {}
}

export const identityProvider: Capability = {
  name: "identity-provider",
  texts: identityProviderTexts,
  adapterMethods: OIDC_ADAPTER_METHODS,
  events: ["oidcProvider"],
  auditTypes: IDENTITY_PROVIDER_AUDIT_TYPES,
  auditEvents: IDENTITY_PROVIDER_AUDIT_EVENTS,
  options: {
    names: ["oidcProvider"],
    resolve: (config, { adapter }) => ({ oidcProvider: resolveOidcProvider(config.oidcProvider, adapter, config.organizations !== undefined && config.organizations !== false) }),
  },
  mount: identityProviderMount,
  routes: {
    "oidc-interaction": {
      GET: { handler: lazy(() => import("./actions/interaction.js"), "interactionGet") },
      POST: { handler: lazy(() => import("./actions/interaction.js"), "interactionPost"), csrf: true },
    },
    "connected-apps": {
      GET: { handler: lazy(() => import("./actions/apps.js"), "connectedAppsGet"), api: true },
      POST: { handler: lazy(() => import("./actions/apps.js"), "connectedAppsPost"), csrf: true },
    },
  },
  subPaths: ["oidc-interaction", "connected-apps"],
  outcomes: {
    IdentityProviderUnavailable: { page: "error", status: 404 },
    InteractionNotFound: { page: "error", status: 400 },
    AccessTokenInvalid: { page: "error", status: 401 },
    AccessTokenRequired: { page: "error", status: 401 },
    OidcClientNotFound: { page: "error", status: 404 },
  },
}
