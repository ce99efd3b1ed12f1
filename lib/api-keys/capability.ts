/**
 * API keys as a capability (lib/core/capability.ts, issue #31): keys of a user or of an
 * organization for scripts, CLIs and services, on the app's routes with
 * `requireAuth(config, { apiKey: true | "only", scope })` (guard.ts, through lib/express).
 * - `GET api-keys` (JSON): the user's keys, or an organization's (`?organizationId=`);
 * - `POST api-keys/<create|revoke>` (CSRF-protected; JSON, or a form: actions/post.ts).
 * With the option off every path answers `ApiKeysUnavailable`. With it on, every session read
 * says `auth.via: "session"` (session-fact.ts).
 */
import { lazy, type Capability } from "../core/capability.js"
import type { TextsOf } from "../i18n/text-types.js"
import type { Awaitable } from "../base-types.js"
import { apiKeysTexts } from "./texts/index.js"
import { API_KEY_ADAPTER_METHODS } from "./adapter.js"
import { API_KEY_AUDIT_EVENTS, API_KEY_AUDIT_TYPES } from "./audit.js"
import { resolveApiKeys, type ApiKeysOptions, type ResolvedApiKeys } from "./options.js"
import type { ApiKeyEvent } from "./events.js"
import type { ApiKeyFact } from "./caller.js"
import { sessionVia } from "./session-fact.js"

declare module "../types.js" {
  interface CapabilityActions {
    "api-keys": true
  }
  interface CapabilityConfigOptions {
    /** API keys for scripts, CLIs and services (off by default): `true`, or `{ prefix, scopes, header, maxAge, rateLimit, userKeys }`. docs/api-keys.md. */
    apiKeys?: boolean | ApiKeysOptions
  }
}

declare module "../base-types.js" {
  interface DefaultSession {
    /** With API keys on: how this request is signed in, by a session or by an API key. */
    via?: "session" | "apiKey" | "accessToken"
    /** A request signed in by an API key: the key (never the key itself). */
    apiKey?: ApiKeyFact
  }
}

declare module "../callbacks.js" {
  interface CapabilityEvents {
    /** A key created, used for the first time, or revoked; `type` says which (the audit record's type). */
    apiKey?: (message: ApiKeyEvent) => Awaitable<void>
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** API keys (issue #31); undefined when off. */
    readonly apiKeys?: ResolvedApiKeys
  }
}

declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof apiKeysTexts.en> {}
}

declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof API_KEY_AUDIT_TYPES)[number], true> {}
}

export const apiKeys: Capability = {
  name: "apiKeys",
  texts: apiKeysTexts,
  adapterMethods: API_KEY_ADAPTER_METHODS,
  events: ["apiKey"],
  auditTypes: API_KEY_AUDIT_TYPES,
  auditEvents: API_KEY_AUDIT_EVENTS,
  options: {
    names: ["apiKeys"],
    resolve: (config, { adapter }) => {
      const resolved = resolveApiKeys(config.apiKeys, adapter)
      return { apiKeys: resolved, ...(resolved && { sessionFacts: sessionVia }) }
    },
  },
  routes: {
    "api-keys": {
      GET: { handler: lazy(() => import("./actions/list.js"), "apiKeysGet"), api: true },
      POST: { handler: lazy(() => import("./actions/post.js"), "apiKeysPost"), csrf: true },
    },
  },
  subPaths: ["api-keys"],
  outcomes: {
    ApiKeyInvalid: { page: "error", status: 401 },
    ApiKeyExpired: { page: "error", status: 401 },
    ApiKeyRequired: { page: "error", status: 401 },
    InsufficientScope: { page: "error", status: 403 },
    ApiKeyNotFound: { page: "error", status: 404 },
    ApiKeysUnavailable: { page: "error", status: 404 },
  },
}
