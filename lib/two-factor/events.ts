/**
 * What the `twoFactorChallenge` event reports (declared on `EventCallbacks` in capability.ts; a
 * file of its own so that the code firing it and the capability object both read it without an
 * import cycle). `gatehouse` exports it (lib/index.ts).
 */
export interface TwoFactorChallengeMessage {
  userId: string
  method: "totp" | "recovery" | "passkey"
  outcome: "success" | "TwoFactorCodeInvalid" | "TwoFactorCodeReplayed" | "RecoveryCodeUsed" | "RateLimited"
}
