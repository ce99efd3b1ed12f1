/**
 * The English catalog: every text of the built-in pages and the sign-in email. The other catalogs
 * must have exactly these keys (the type checks it, and a test). `{name}` marks a value filled in
 * when the text is used; every text is escaped where it is output.
 */
export const en = {
  "signin.heading": "Sign in",
  "signin.with": "Sign in with {provider}",
  "signin.or": "or",
  "signin.none": "No sign-in method is configured.",
  "signin.email.label": "Email",
  "signin.email.placeholder": "you@example.com",
  "signin.passkey.emailLabel": "Email (to create an account)",
  "signin.passkey.unsupported": "This browser does not support passkeys.",
  "signin.passkey.failed": "The passkey sign-in did not complete. Please try again.",

  "signin.error.Signin": "We could not start the sign-in. Please try again, or choose another way to sign in.",
  "signin.error.OAuthSignin": "We could not reach the sign-in service. Please try again, or choose another way to sign in.",
  "signin.error.OAuthCallbackError": "The sign-in service sent back an answer we could not accept. Please try again.",
  "signin.error.OAuthCreateAccount": "We could not create your account with that sign-in service. Please try another way to sign in.",
  "signin.error.EmailCreateAccount": "We could not create your account for that email address. Please try another way to sign in.",
  "signin.error.Callback": "Something went wrong while finishing your sign-in. Please try again.",
  "signin.error.OAuthAccountNotLinked": "This email address is already registered with another sign-in method. Use the method you used first.",
  "signin.error.EmailSignin": "We could not send the sign-in email. Check the address and try again.",
  "signin.error.CredentialsSignin": "Those details did not match. Check them and try again.",
  "signin.error.SessionRequired": "Please sign in to see that page.",
  "signin.error.MissingCSRF": "The form had expired. Please try again.",
  "signin.error.WebAuthnVerificationError": "The passkey could not be verified. Please try again, or use another way to sign in.",
  "signin.error.RateLimited": "Too many attempts. Wait a few minutes, then try again.",
  "signin.error.EmailCodeExpired": "That code no longer works: it expired, or its email was used already. Ask for a new email.",
  "signin.error.EmailCodeLocked": "Too many wrong codes. Ask for a new email.",
  "signin.error.EmailCodeNotBound": "A code works only in the browser where you asked for it. Open the link in the email, or ask for a new email here.",
  "signin.error.UnverifiedAccountExists": "An account with this email address was set up without proving the address, so we did not sign you in. Contact the site's support to have it removed.",
  "signin.error.default": "We could not sign you in. Please try again.",

  "signin.passkey.create.heading": "New here? Create a passkey",
  "signin.passkey.create.viaEmail": "We first send a link to this address, to make sure it is yours.",
  "signin.passkey.create.button": "Create a passkey",
  "signin.passkey.create.emailButton": "Email me a link to create a passkey",
  "passkey.setup.heading": "Create a passkey",
  "passkey.setup.message": "Your email address is confirmed. Create a passkey to sign in next time with your fingerprint, face or screen lock.",
  "passkey.setup.skip": "Not now",
  "notice.AccountReclaimed.heading": "Your account is secured",
  "notice.AccountReclaimed.message": "Before you proved that this email address is yours, someone had set up another way to sign in to an account with it. We removed every sign-in method you did not prove and signed out all of that account's sessions. If anything in the account looks unfamiliar, check it.",
  "notice.continue": "Continue",

  "signout.heading": "Sign out",
  "signout.question": "Are you sure you want to sign out?",
  "signout.button": "Sign out",

  "verify.heading": "Check your email",
  "verify.message": "We sent you a link to sign in. It works once and expires soon.",
  "verify.codeMessage": "We sent you an email with a sign-in code and a link. Type the code here, or open the link.",
  "verify.code.label": "Code from the email",
  "verify.code.button": "Sign in",
  "verify.error.EmailCodeInvalid": "That code is not right. Check it and try again.",
  "confirm.heading": "Sign in",
  "confirm.message": "Sign in as {identifier}?",
  "confirm.button": "Sign in",
  "confirm.hint": "You opened a sign-in link. Press the button to finish signing in. If you did not ask for it, close this page.",

  "link.home": "Go to the home page",
  "link.signInAgain": "Sign in again",

  "error.Configuration.heading": "Server error",
  "error.Configuration.message": "The sign-in service is not set up correctly. The site's logs say more.",
  "error.AccessDenied.heading": "Access denied",
  "error.AccessDenied.message": "You are not allowed to sign in here.",
  "error.Verification.heading": "This link no longer works",
  "error.Verification.message": "Sign-in links can be used once and expire after a while. Ask for a new one.",
  "error.AdapterError.heading": "Temporarily unavailable",
  "error.AdapterError.message": "Sign-in is unavailable for a moment. Please try again shortly.",
  "error.ProviderRedirectRefused.heading": "The sign-in provider did not answer properly",
  "error.ProviderRedirectRefused.message": "Signing in with this provider failed because it took too long or sent an answer we could not accept. Please try again, or choose another way to sign in.",
  "error.ProviderResponseTooLarge.heading": "The sign-in provider did not answer properly",
  "error.ProviderResponseTooLarge.message": "Signing in with this provider failed because it took too long or sent an answer we could not accept. Please try again, or choose another way to sign in.",
  "error.ProviderTimeout.heading": "The sign-in provider did not answer properly",
  "error.ProviderTimeout.message": "Signing in with this provider failed because it took too long or sent an answer we could not accept. Please try again, or choose another way to sign in.",
  "error.StoreUnavailable.heading": "Temporarily unavailable",
  "error.StoreUnavailable.message": "Passkey sign-in is unavailable for a moment. Please try again shortly, or use another way to sign in.",
  "error.default.heading": "Something went wrong",
  "error.default.message": "We could not complete that request. Please try again.",

  "email.subject": "Sign in to {site}",
  "email.heading": "Sign in to {site}",
  "email.intro": "Use this button to sign in as {identifier}.",
  "email.button": "Sign in",
  "email.textIntro": "Open this link to sign in as {identifier}:",
  "email.expires": "The link works once and expires {expires}. If you did not ask for it, ignore this email.",
  "email.codeLabel": "Your sign-in code",
  "email.codeHelp": "Type it on the page where you asked to sign in, in the same browser. It works once and expires {codeExpires}.",
  "email.linkIntro": "Or use this button to sign in as {identifier}.",
  "email.textLinkIntro": "Or open this link to sign in as {identifier}:",
} as const

export type MessageKey = keyof typeof en

/** A full catalog: a text for every key. */
export type Messages = Readonly<Record<MessageKey, string>>
