// What to tell the user for each error type the client can throw (AuthClientError.type).
import { AuthClientError } from "gatehouse/client"

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "That address and password do not match an account.",
  EmailNotVerified: "Confirm your address first: open the link in the mail we sent when you signed up.",
  EmailCodeInvalid: "That code is not right. Check the mail and try again.",
  EmailCodeExpired: "That code has expired. Ask for a new one.",
  EmailCodeLocked: "Too many wrong codes. Ask for a new one.",
  EmailCodeNotBound: "Type the code in the browser that asked for it, or ask for a new one.",
  TwoFactorCodeInvalid: "That code is not right. Type the code your authenticator app shows now.",
  TwoFactorCodeReplayed: "That code was used already. Wait for the next one.",
  TwoFactorExpired: "The sign-in took too long. Start again.",
  RecoveryCodeUsed: "That recovery code was used already.",
  RateLimited: "Too many tries. Wait a minute, then try again.",
  PasskeyCancelled: "The passkey request was cancelled.",
  NetworkError: "The server could not be reached. Check your connection.",
}

export function messageFor(error: unknown): string {
  if (error instanceof AuthClientError) return MESSAGES[error.type] ?? `Something went wrong (${error.type}).`
  return "Something went wrong. Please try again."
}
