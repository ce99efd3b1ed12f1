/**
 * One-time email codes' English texts: the code form on the verify-request page, the code in the
 * sign-in email, and the sign-in page's texts for a code that no longer works. The other languages
 * beside this file have exactly these keys (the type checks it, and a test). `{name}` marks a
 * value filled in when the text is used; every text is escaped where it is output.
 */
export const en = {
  "signin.error.EmailCodeExpired": "That code no longer works: it expired, or its email was used already. Ask for a new email.",
  "signin.error.EmailCodeLocked": "Too many wrong codes. Ask for a new email.",
  "signin.error.EmailCodeNotBound": "A code works only in the browser where you asked for it. Open the link in the email, or ask for a new email here.",

  "verify.codeMessage": "We sent you an email with a sign-in code and a link. Type the code here, or open the link.",
  "verify.codeMessageTo": "We sent an email with a sign-in code and a link to {email}. Type the code here, or open the link.",

  "verify.code.label": "Code from the email",
  "verify.code.button": "Sign in",

  "verify.error.EmailCodeInvalid": "That code is not right. Check it and try again.",

  "email.codeLabel": "Your sign-in code",

  "email.codeHelp": "Type it on the page where you asked to sign in, in the same browser. It works once and expires {codeExpires}.",

  "email.linkIntro": "Or use this button to sign in as {identifier}.",

  "email.textLinkIntro": "Or open this link to sign in as {identifier}:",
} as const
