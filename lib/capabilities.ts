/**
 * Every capability the router serves beside the spec's actions (lib/core/capability.ts). Adding a
 * capability is one line here (one more in capability-texts.ts if it has texts); its folder holds
 * the rest.
 */
import type { Capability } from "./core/capability.js"
import { account } from "./account/capability.js"
import { audit } from "./audit/capability.js"
import { devices } from "./devices/capability.js"
import { emailCodes } from "./email-codes/capability.js"
import { federation } from "./federation/capability.js"
import { notices } from "./notices/capability.js"
import { passkeys } from "./passkeys/capability.js"
import { password } from "./password/capability.js"
import { tokens } from "./tokens/capability.js"
import { twoFactor } from "./two-factor/capability.js"

export const CAPABILITIES: readonly Capability[] = [devices, account, passkeys, federation, tokens, password, twoFactor, emailCodes, notices, audit]

// Named as well as listed, so that the published types load each capability's declarations (its
// action names join `AuthAction`, its resolved options `CapabilityConfig`, from its folder).
export { account, audit, devices, emailCodes, federation, notices, passkeys, password, tokens, twoFactor }
