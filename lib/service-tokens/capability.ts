/**
 * Service tokens as a capability (lib/core/capability.ts, issue #31): the signed-in session or an
 * API key made into a short-lived signed JWT (ES256 or EdDSA) for the app's other services, and
 * the public keys that verify it.
 * - `GET token` (JSON, never cached): `{ token, tokenType, expiresIn, expires }` (actions/token.ts);
 * - `GET jwks` (public, HEAD too, cacheable for 5 minutes): the published keys (actions/jwks.ts);
 * - `verifyServiceToken` for the receiving side (verify.ts; also `gatehouse/service-tokens`).
 * Keys come from the option or are generated, sealed in the shared store and rotated with the next
 * key published ahead of its use (schedule.ts). With the option off both paths answer
 * `ServiceTokensUnavailable`.
 */
import { lazy, type Capability } from "../core/capability.js"
import type { TextsOf } from "../i18n/text-types.js"
import { serviceTokenTexts } from "./texts/index.js"
import { SERVICE_TOKEN_AUDIT_TYPES } from "./audit.js"
import { resolveServiceTokens, type ResolvedServiceTokens, type ServiceTokensOptions } from "./options.js"

declare module "../types.js" {
  interface CapabilityActions {
    token: true
    jwks: true
  }
  interface CapabilityConfigOptions {
    /**
     * Service tokens (off by default): `GET <base>/token` makes the session or API key into a
     * short-lived signed JWT for the app's other services, `GET <base>/jwks` publishes the keys.
     * `true`, or `{ algorithm?, maxAge?, audiences?, issuer?, keys?, rotation? }`. docs/service-tokens.md.
     */
    serviceTokens?: boolean | ServiceTokensOptions
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** Service tokens (issue #31); undefined when off. */
    readonly serviceTokens?: ResolvedServiceTokens
  }
}

declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof serviceTokenTexts.en> {}
}

declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof SERVICE_TOKEN_AUDIT_TYPES)[number], true> {}
}

export const serviceTokens: Capability = {
  name: "service-tokens",
  texts: serviceTokenTexts,
  auditTypes: SERVICE_TOKEN_AUDIT_TYPES,
  options: {
    names: ["serviceTokens"],
    resolve: (config) => ({ serviceTokens: resolveServiceTokens(config.serviceTokens) }),
  },
  routes: {
    // A GET that issues a token: no HEAD (it would issue one and throw it away).
    token: { GET: { handler: lazy(() => import("./actions/token.js"), "serviceToken"), api: true } },
    jwks: { GET: { handler: lazy(() => import("./actions/jwks.js"), "serviceTokenJwks"), api: true, head: true } },
  },
  outcomes: {
    ServiceTokenInvalid: { page: "error", status: 401 },
    ServiceTokenScopeDenied: { page: "error", status: 403 },
    ServiceTokensUnavailable: { page: "error", status: 404 },
  },
}
