/**
 * Two-factor sign-in's English texts: its pages (`two-factor`, `two-factor/setup`) and the sign-in
 * page's texts for its errors. The other languages beside this file have exactly these keys (the
 * type checks it, and a test). `{name}` marks a value filled in when the text is used; every text
 * is escaped where it is output.
 */
export const en = {
  "signin.error.TwoFactorCodeInvalid": "That code is not right. Check your authenticator app and try again.",
  "signin.error.TwoFactorCodeReplayed": "That code was used already. Wait for the next code in your app.",
  "signin.error.TwoFactorExpired": "The sign-in took too long to finish. Please sign in again.",
  "signin.error.RecoveryCodeUsed": "That recovery code was used already. Each one works once.",

  "twoFactor.heading": "Two-step verification",
  "twoFactor.message": "Enter the 6-digit code from your authenticator app.",
  "twoFactor.code.label": "Code",
  "twoFactor.button": "Verify",
  "twoFactor.recoveryHint": "No access to your app? Type one of your recovery codes instead.",
  "twoFactor.cancel": "Start over",
  "twoFactor.passkey": "Use a passkey instead",
  "twoFactor.setup.heading": "Set up two-step verification",
  "twoFactor.setup.scan": "Scan this QR code with your authenticator app, or type the key below into it.",
  "twoFactor.setup.secretLabel": "Key for manual entry:",
  "twoFactor.setup.confirm": "Code your app shows now",
  "twoFactor.setup.button": "Turn on",
  "twoFactor.codes.heading": "Your recovery codes",
  "twoFactor.codes.message": "Keep these codes somewhere safe. If you lose your device, each one lets you sign in once. They are shown only now.",
  "twoFactor.codes.continue": "Continue",
  "twoFactor.manage.heading": "Two-step verification is on",
  "twoFactor.manage.remaining": "Unused recovery codes:",
  "twoFactor.manage.codeLabel": "Current code or a recovery code",
  "twoFactor.manage.regenerate": "Get new recovery codes",
  "twoFactor.manage.disable": "Turn off",
  "twoFactor.off.heading": "Two-step verification is off",
  "twoFactor.off.message": "Signing in now needs only your first step. You can turn it on again at any time.",
  "twoFactor.codes.enabled": "Two-step verification is now on.",
  "twoFactor.codes.renewed": "New recovery codes were made. The old ones no longer work.",
  "twoFactor.codes.copy": "Copy as text",
  "twoFactor.codes.copyLabel": "Recovery codes, one per line: select them to copy",
  "twoFactor.codes.download": "Download as a text file",
  "twoFactor.setup.cancel": "Cancel",
} as const
