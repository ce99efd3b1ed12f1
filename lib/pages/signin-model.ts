/**
 * The sign-in page's view model: what `signinModel` (./signin.ts) builds and views/signin.ejs and
 * its partials read, one type per kind of entry, and the step the page is at (issue #26).
 */
import type { LOGIN_HINT } from "./signin-identifier.js"

export interface FieldModel {
  id: string
  name: string
  label: string
  type: string
  placeholder?: string
  autocomplete?: string
  required: boolean
  /** What was typed before (never a password). */
  value?: string
  /** The error about this field, shown beside it (`<id>-error`). */
  error?: string
  /** The field a person types in next (the password after step one, or one with an error). */
  autofocus?: boolean
}

export interface CredentialsModel {
  id: string
  name: string
  action: string
  fields: FieldModel[]
  links?: Array<{ href: string; text: string }>
  button: string
  /** On the `choose` step: the identifier's field, sent as typed on step one (not shown again). */
  identifier?: { name: string; value: string }
  lastUsed?: boolean
  /** The challenge this form carries (after failed sign-ins, with bot protection on). */
  challenge?: ChallengeModel
}

export interface EmailModel {
  id: string
  name: string
  action: string
  button: string
  /** `passkeyAutofill`: this field also offers the site's passkeys (conditional UI). */
  passkeyAutofill?: boolean
  /** The address typed before; on the `choose` step it is sent as it is, no field shown. */
  value?: string
  /** On the `choose` step: the address is the identifier, sent without a field. */
  fixed?: boolean
  error?: string
  lastUsed?: boolean
  /** The challenge this form carries (with bot protection on). */
  challenge?: ChallengeModel
}

/**
 * A challenge a form carries (bot protection, issue #33): made by the resolved `formChallenge`,
 * drawn by views/partials/bot-challenge.ejs. The page loads its `scripts` once, with the first form.
 */
export interface ChallengeModel {
  scripts: readonly unknown[]
}

export interface OAuthModel {
  id: string
  name: string
  action: string
  logo?: string
  button: string
  lastUsed?: boolean
}

export interface WebAuthnModel {
  id: string
  name: string
  action: string
  optionsUrl: string
  conditional: boolean
  emailLabel: string
  button: string
  create: PasskeyCreateModel
  lastUsed?: boolean
}

/** The identifier field of the `identify` step, or the identifier shown on the `choose` step. */
export interface IdentifierModel {
  /** The sign-in page itself: step one is a GET form to it. */
  action: string
  name: typeof LOGIN_HINT
  label: string
  type: "email" | "text"
  value?: string
  error?: string
  /** Step one again, without the identifier ("Use another account"). */
  changeUrl: string
}

export interface SigninModel {
  csrfToken: string
  callbackUrl: string
  /** An error shown at the top of the page: one that is about no single field. */
  error?: string
  step: "single" | "identify" | "choose"
  identifier?: IdentifierModel
  credentials: CredentialsModel[]
  email: EmailModel[]
  oauth: OAuthModel[]
  webauthn: WebAuthnModel[]
  /** The password accounts' sign-up page (a secondary path on the first step). */
  signupUrl?: string
  /** The passkey script, when the page has a passkey form. */
  scriptUrl?: string
  /** Enterprise sign-in (the `sso` option on, issue #28). */
  sso?: SsoModel
}

/**
 * "Sign in with SSO": a link to its page (`url`, keeping the callback URL and the typed
 * identifier), or, on the `choose` step for an address whose domain's organization requires its
 * SSO, `only`: the one way offered, a POST that starts it for that address.
 */
export interface SsoModel {
  url: string
  only?: { action: string; identifier: string; message: string }
}

/**
 * How a first passkey is created from the sign-in page (issue #12). With an email provider, the
 * address is proved first: a magic link whose callback is the passkey set-up page, where the
 * signed-in (verified) user creates the passkey. Without one, the ceremony runs at once for a new
 * user whose address stays unverified until a proving sign-in (README, "Account linking and
 * email trust"). On the `choose` step, the address is the identifier (`email`): no field again.
 */
export interface PasskeyCreateModel {
  /** `challenge`: the email sign-in request's challenge (with bot protection on). */
  viaEmail?: { action: string; callbackUrl: string; challenge?: ChallengeModel }
  email?: string
}
