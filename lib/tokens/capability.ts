/**
 * Provider tokens as a capability (lib/core/capability.ts): the access, refresh and ID tokens a
 * provider gave at sign-in, kept for `getAccessToken` (refreshed when due, one refresh at a time)
 * and for federated sign-out. It has no route of its own.
 */
import type { Capability } from "../core/capability.js"

export const tokens: Capability = {
  name: "tokens",
}
