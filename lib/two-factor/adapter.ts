/**
 * The adapter methods two-factor sign-in needs (Gatehouse extensions, issue #16): a TOTP record
 * and recovery codes per user. They join `Adapter` from here by declaration merging (lib/adapters.ts
 * re-exports the record types, so `gatehouse` exports them as before), and `TWO_FACTOR_ADAPTER_METHODS`
 * names them for the core's adapter wrapper (lib/core/adapter.ts) through the capability object.
 * The contract-kit checks are adapters/test-kit/two-factor.ts.
 */
import type { Awaitable } from "../base-types.js"

/** What `useRecoveryCode` found. */
export type RecoveryCodeUse = "accepted" | "alreadyUsed" | "unknown"

/**
 * A user's TOTP enrolment. `secret` is the shared secret sealed by Gatehouse (encrypted with a key
 * derived from the app secret): adapters store it as an opaque string.
 */
export interface AdapterTwoFactor {
  userId: string
  secret: string
  enabledAt: Date
}

declare module "../adapters.js" {
  interface Adapter {
    /** Gatehouse extension (two-factor sign-in): the user's TOTP record, or null when not enrolled. */
    getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>
    /** Gatehouse extension: turns two-factor sign-in on (replacing any record) with these recovery code hashes. */
    enableTwoFactor?(record: AdapterTwoFactor, recoveryCodeHashes: string[]): Awaitable<void>
    /** Gatehouse extension: replaces the user's recovery codes (hashes) with new ones. */
    replaceRecoveryCodes?(userId: string, recoveryCodeHashes: string[]): Awaitable<void>
    /**
     * Gatehouse extension: single use, atomic: marks the user's code used and answers "accepted" for
     * exactly one of concurrent callers; "alreadyUsed" for a code used before; "unknown" otherwise.
     */
    useRecoveryCode?(userId: string, recoveryCodeHash: string): Awaitable<RecoveryCodeUse>
    /** Gatehouse extension: how many unused recovery codes the user has. */
    countRecoveryCodes?(userId: string): Awaitable<number>
    /** Gatehouse extension: turns two-factor sign-in off: the record and every recovery code removed. */
    disableTwoFactor?(userId: string): Awaitable<void>
  }
}

export const TWO_FACTOR_ADAPTER_METHODS = ["getTwoFactor", "enableTwoFactor", "replaceRecoveryCodes", "useRecoveryCode", "countRecoveryCodes", "disableTwoFactor"] as const
