/**
 * Security notices' English texts: the mails (`notices.mail.*`) and the page that undoes a change
 * of email address (`notices.undo.*`). The other languages beside this file have exactly these
 * keys (the type checks it, and a test). `{name}` marks a value filled in when the text is used;
 * every text is escaped where it is output.
 */
export const en = {
  "notices.mail.emailChanged.subject": "The email address of your account on {site} was changed",
  "notices.mail.emailChanged.intro": "On {time}, the email address of your account on {site} was changed from this address to {detail}.",
  "notices.mail.emailChanged.button": "Undo this change",
  "notices.mail.emailChanged.footer": "If this was not you, open the link before {expires}: it gives your account this address back and signs out every device. The link works once.",
  "notices.mail.passwordChanged.subject": "The password of your account on {site} was changed",
  "notices.mail.passwordChanged.intro": "On {time}, the password of your account on {site} was changed.",
  "notices.mail.passwordReset.subject": "The password of your account on {site} was reset",
  "notices.mail.passwordReset.intro": "On {time}, the password of your account on {site} was reset with a link sent to this address.",
  "notices.mail.twoFactorEnabled.subject": "Two-factor sign-in was set up for your account on {site}",
  "notices.mail.twoFactorEnabled.intro": "On {time}, an authenticator app was set up for two-factor sign-in to your account on {site}.",
  "notices.mail.twoFactorDisabled.subject": "Two-factor sign-in was turned off for your account on {site}",
  "notices.mail.twoFactorDisabled.intro": "On {time}, two-factor sign-in was turned off for your account on {site}: the first sign-in step alone signs in now.",
  "notices.mail.recoveryCodesReplaced.subject": "New recovery codes were made for your account on {site}",
  "notices.mail.recoveryCodesReplaced.intro": "On {time}, new recovery codes were made for your account on {site}; the old ones no longer work.",
  "notices.mail.passkeyAdded.subject": "A new passkey was added to your account on {site}",
  "notices.mail.passkeyAdded.intro": "On {time}, a new passkey was added to your account on {site}. It can sign in to your account.",
  "notices.mail.methodLinked.subject": "A new way to sign in was added to your account on {site}",
  "notices.mail.methodLinked.intro": "On {time}, {detail} was added to your account on {site} as a way to sign in.",
  "notices.mail.password": "a password",
  "notices.mail.twoFactorLocked.subject": "Repeated wrong codes for your account on {site}",
  "notices.mail.twoFactorLocked.intro": "On {time}, someone who knew the password of your account on {site} entered wrong two-factor codes again and again. Two-factor sign-in to your account is paused for a while, and each further series of wrong codes pauses it longer.",
  "notices.mail.button": "Check your account",
  "notices.mail.footer": "If this was you, there is nothing to do. If not, someone else may be able to sign in to your account: check its sign-in methods and devices, and choose a new password if you have one.",
  "notices.undo.heading": "Undo the change of your email address",
  "notices.undo.message": "This gives your account the address {email} back and signs out every device, including this one. Then sign in again, and choose a new password if someone else may know it.",
  "notices.undo.button": "Give my account {email} back",
} as const
