/**
 * The adapter methods password accounts need beside the spec's (Gatehouse extensions): the user's
 * password hash. They join `Adapter` from here by declaration merging (lib/adapters.ts refers to
 * this file so the public type has them), and `PASSWORD_ADAPTER_METHODS` names them for the core's
 * adapter wrapper (lib/core/adapter.ts) through the capability object. Removing a user's reset
 * links (`deleteVerificationTokens`) is shared with the account page and stays in lib/adapters.ts.
 * The contract-kit checks are adapters/test-kit/passwords.ts.
 */
import type { Awaitable } from "../base-types.js"

declare module "../adapters.js" {
  interface Adapter {
    /** Gatehouse extension (password accounts): the user's password hash (a string that names its parameters), or null. */
    getPasswordHash?(userId: string): Awaitable<string | null>
    /** Gatehouse extension (password accounts): stores or replaces the user's password hash. */
    setPasswordHash?(userId: string, hash: string): Awaitable<void>
  }
}

export const PASSWORD_ADAPTER_METHODS = ["getPasswordHash", "setPasswordHash"] as const
