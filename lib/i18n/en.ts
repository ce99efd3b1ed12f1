/**
 * The core's English texts: the sign-in, sign-out, verify-request, notice and error pages and the
 * sign-in email. Each capability brings its own texts, in every language, in its folder
 * (lib/<capability>/texts/); catalogs.ts merges them with these. The core's other languages must
 * have exactly these keys (the type checks it, and a test). `{name}` marks a value filled in when
 * the text is used; every text is escaped where it is output.
 */
import type { CapabilityMessages, TextsOf } from "./text-types.js"

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
  "signin.error.UnverifiedAccountExists": "An account with this email address was set up without proving the address, so we did not sign you in. Contact the site's support to have it removed.",
  "signin.error.EmailProofRequired": "The address must be proved first. Ask for a sign-in link below; after it you can create your passkey.",
  "signin.error.RecentSignInRequired": "For your security, sign in again to continue.",
  "signin.error.default": "We could not sign you in. Please try again.",

  "signin.passkey.create.heading": "New here? Create a passkey",
  "signin.passkey.create.viaEmail": "We first send a link to this address, to make sure it is yours.",
  "signin.passkey.create.button": "Create a passkey",
  "signin.passkey.create.emailButton": "Email me a link to create a passkey",
  "signin.continue": "Continue",
  "signin.submit": "Sign in",
  "signin.identifier.either": "Email or username",
  "signin.identifier.invalidEmail": "Enter an email address, like name@example.com.",
  "signin.identifier.change": "Use another account",
  "signin.identifier.current": "Signing in as",
  "signin.choose": "Choose how to sign in.",
  "signin.field.username": "Username",
  "signin.field.password": "Password",
  "signin.field.email": "Email",
  "signin.email.button": "Email me a sign-in link",
  "signin.email.buttonCode": "Email me a link or code",
  "signin.passkey.button": "Sign in with a passkey",
  "signin.method.password": "password",
  "signin.lastUsed": "Last used",
  "signin.signup.prompt": "New here?",
  "notice.AccountReclaimed.heading": "Your account is secured",
  "notice.AccountReclaimed.message": "Before you proved that this email address is yours, someone had set up another way to sign in to an account with it. We removed every sign-in method you did not prove and signed out all of that account's sessions. If anything in the account looks unfamiliar, check it.",
  "notice.EmailChangeUndone.heading": "Your email address is back",
  "notice.EmailChangeUndone.message": "Your account has its previous email address again, and every device was signed out. Sign in again.",
  "notice.EmailChangeUndone.password": "If someone else may know your password, choose a new one with “Forgot your password?”.",
  "notice.continue": "Continue",

  "signout.heading": "Sign out",
  "signout.question": "Are you sure you want to sign out?",
  "signout.button": "Sign out",
  "signout.cancel": "Cancel",

  "verify.heading": "Check your email",
  "verify.message": "We sent you a link to sign in. It works once and expires soon.",
  "verify.messageTo": "We sent a sign-in link to {email}. It works once and expires soon.",
  "verify.resend.prompt": "No email? Check your spam folder, or send it again.",
  "verify.resend.button": "Send again",
  "verify.resent": "We sent the email again. Use the newest one.",
  "verify.otherAddress": "Use another address",
  "confirm.heading": "Sign in",
  "confirm.message": "Sign in as {identifier}?",
  "confirm.button": "Sign in",
  "confirm.hint": "You opened a sign-in link. Press the button to finish signing in. If you did not ask for it, close this page.",

  "link.home": "Go to the home page",
  "link.signInAgain": "Sign in again",
  "link.signIn": "Go to the sign-in page",

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
  "error.UnknownAction.heading": "Page not found",
  "error.UnknownAction.message": "There is nothing at this address. Check the link, or start again from the sign-in page.",

  "email.subject": "Sign in to {site}",
  "email.heading": "Sign in to {site}",
  "email.intro": "Use this button to sign in as {identifier}.",
  "email.button": "Sign in",
  "email.textIntro": "Open this link to sign in as {identifier}:",
  "email.expires": "The link works once and expires {expires}. If you did not ask for it, ignore this email.",
} as const

/** Every key of a catalog: the core's and every capability's (each declares its own, ./text-types.ts). */
export type MessageKey = keyof typeof en | keyof CapabilityMessages

/** A full catalog: a text for every key, the core's and every capability's. */
export type Messages = Readonly<Record<MessageKey, string>>

/** The core's texts in one language. */
export type CoreMessages = TextsOf<typeof en>
