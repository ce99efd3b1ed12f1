/**
 * Passkey set-up's English texts: the `passkey-setup` page. The other languages beside this file
 * have exactly these keys (the type checks it, and a test). `{name}` marks a value filled in when
 * the text is used; every text is escaped where it is output.
 */
export const en = {
  "passkey.setup.heading": "Create a passkey",
  "passkey.setup.emailConfirmed": "Your email address is confirmed.",
  "passkey.setup.message": "Create a passkey to sign in next time with your fingerprint, face or screen lock.",
  "passkey.setup.skip": "Not now",
} as const
