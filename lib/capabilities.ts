/**
 * Every capability the router serves beside the spec's actions (lib/core/capability.ts). Adding a
 * capability is one line here; its folder holds the rest (its texts too: the resolver hands them to
 * lib/i18n, lib/core/built-in-texts.ts).
 */
import type { Capability } from "./core/capability.js"
import { account } from "./account/capability.js"
import { admin } from "./admin/capability.js"
import { apiKeys } from "./api-keys/capability.js"
import { audit } from "./audit/capability.js"
import { botProtection } from "./bot-protection/capability.js"
import { devices } from "./devices/capability.js"
import { emailCodes } from "./email-codes/capability.js"
import { federation } from "./federation/capability.js"
import { identityProvider } from "./identity-provider/capability.js"
import { notices } from "./notices/capability.js"
import { organizations } from "./organizations/capability.js"
import { passkeys } from "./passkeys/capability.js"
import { password } from "./password/capability.js"
import { scim } from "./scim/capability.js"
import { serviceTokens } from "./service-tokens/capability.js"
import { sso } from "./sso/capability.js"
import { tokens } from "./tokens/capability.js"
import { twoFactor } from "./two-factor/capability.js"

export const CAPABILITIES: readonly Capability[] = [devices, account, passkeys, federation, tokens, password, twoFactor, emailCodes, notices, organizations, sso, scim, admin, apiKeys, serviceTokens, botProtection, identityProvider, audit]

// Named as well as listed, so that the published types load each capability's declarations (its
// action names join `AuthAction`, its options `AuthConfig`, its events `EventCallbacks`, its resolved
// options `CapabilityConfig`, from its folder).
export { account, admin, apiKeys, audit, botProtection, devices, emailCodes, federation, identityProvider, notices, organizations, passkeys, password, scim, serviceTokens, sso, tokens, twoFactor }
