/**
 * Federated sign-out as a capability (lib/core/capability.ts): `POST backchannel-logout/<provider>`,
 * the OpenID Connect Back-Channel Logout endpoint a provider calls, signed by the provider (no CSRF
 * token, errors always JSON), and the outcome of a logout token that fails validation (400, as the
 * specification says). Signing out at the provider (`federatedSignOut`) lives beside it.
 */
import { lazy, type Capability } from "../core/capability.js"
import { assertSignOutOptions } from "./options.js"

declare module "../types.js" {
  interface CapabilityActions {
    "backchannel-logout": true
  }
}

export const federation: Capability = {
  name: "federation",
  routes: {
    "backchannel-logout": { POST: { handler: lazy(() => import("./actions/backchannel-logout.js"), "backchannelLogout"), provider: "required", api: true } },
  },
  subPaths: ["backchannel-logout"],
  outcomes: { InvalidLogoutToken: { status: 400 } },
  // An OAuth or OIDC provider's `federatedSignOut` and `revokeTokensOnSignOut`, checked at start-up.
  options: {
    checkProvider: (provider, path) => {
      if (provider.type === "oauth" || provider.type === "oidc") assertSignOutOptions(provider, path)
    },
  },
}
