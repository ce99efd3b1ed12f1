/**
 * Enterprise sign-in as a capability (lib/core/capability.ts, issue #28): SSO connections (SAML
 * 2.0, OpenID Connect) that belong to an organization, the email domains it proves, routing by
 * address, just-in-time provisioning and SSO enforcement. Its paths go on for several segments
 * (`deepPaths`):
 * - `GET sso`: "Sign in with SSO" (an address or an organization's slug); `POST sso`: start;
 * - `GET sso/saml/<connection>/metadata`: the SP metadata; `POST sso/saml/<connection>/acs`: the
 *   assertion consumer (POST binding, cross-site: no CSRF token, the checks are the assertion's);
 *   `GET|POST sso/saml/<connection>/slo`: single logout;
 * - `GET sso/oidc/<connection>/callback`: an OIDC connection's redirect URI;
 * - `POST sso/connections/<create|update|delete>`, `POST sso/domains/<add|verify|enforce|remove>`
 *   (CSRF, `organization:update`, a recent sign-in), `GET sso/organization/<id>` (JSON: its
 *   connections and domains).
 * With the option off every path answers `SsoUnavailable`.
 */
import { lazy, type Capability } from "../core/capability.js"
import type { TextsOf } from "../i18n/text-types.js"
import { ssoTexts } from "./texts/index.js"
import { SSO_ADAPTER_METHODS } from "./adapter.js"
import { SSO_AUDIT_TYPES } from "./audit.js"
import { resolveSso, type ResolvedSso, type SsoOptions } from "./options.js"

declare module "../types.js" {
  interface CapabilityActions {
    sso: true
  }
  interface CapabilityConfigOptions {
    /**
     * Enterprise sign-in (needs `organizations`): SAML 2.0 and OIDC connections per organization,
     * domains, routing by address, just-in-time provisioning, enforcement. `true`, or
     * `{ saml: { signingKey, signingCert, clockSkew, maxResponseSize }, dns, txtPrefix }`. docs/sso.md.
     */
    sso?: boolean | SsoOptions
  }
}

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /** Enterprise sign-in (issue #28); undefined when off. */
    readonly sso?: ResolvedSso
  }
}

declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof ssoTexts.en> {}
}

declare module "../audit/types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AuditTypes extends Record<(typeof SSO_AUDIT_TYPES)[number], true> {}
}

export const sso: Capability = {
  name: "sso",
  texts: ssoTexts,
  adapterMethods: SSO_ADAPTER_METHODS,
  auditTypes: SSO_AUDIT_TYPES,
  options: {
    names: ["sso"],
    resolve: (config, { adapter }) => ({ sso: resolveSso(config.sso, adapter, config.organizations !== undefined && (config.organizations as unknown) !== false) }),
  },
  routes: {
    sso: {
      GET: { handler: lazy(() => import("./actions/get.js"), "ssoGet") },
      // The ACS and single logout take the identity provider's cross-site POST: the handler checks
      // the CSRF token of every other POST itself (actions/post.ts).
      POST: { handler: lazy(() => import("./actions/post.js"), "ssoPost") },
    },
  },
  subPaths: ["sso"],
  deepPaths: ["sso"],
  outcomes: {
    SsoUnavailable: { page: "error", status: 404 },
    SsoConnectionNotFound: { page: "error", status: 404 },
    SsoNotConfigured: { page: "signIn", status: 400 },
    SsoRequired: { page: "signIn", status: 403 },
    SsoResponseInvalid: { page: "error", status: 400 },
    SsoReplay: { page: "error", status: 400 },
    SsoUnsolicited: { page: "error", status: 400 },
    SsoAccountNotLinked: { page: "signIn", status: 409 },
    SsoUserDeactivated: { page: "signIn", status: 403 },
    DomainTaken: { page: "error", status: 409, message: { text: "Another organization verified this domain, or this organization claimed it already." } },
    DomainNotVerified: { page: "error", status: 409, message: { text: "The DNS TXT record was not found. Publish it, wait for DNS to update, and try again." } },
    InvalidSsoConnection: { page: "error", status: 400, message: { text: "The connection's settings are incomplete or malformed." } },
  },
}
