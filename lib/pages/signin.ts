/**
 * The sign-in page's view model: one entry per configured provider, grouped by kind, and the
 * step the page is at (issue #26). With more than one method that takes a typed identifier
 * (./signin-identifier.ts), the page has two steps: `identify` (one email or username field and
 * "Continue", a GET form, beside the OAuth buttons and passkey autofill), then `choose` (the
 * methods that identifier's kind can use, the identifier carried along). Otherwise it is the one
 * `single` step it always was. The model's types are in ./signin-model.ts.
 */
import type { CredentialsConfig, Provider } from "../providers/types.js"
import { CORE_ENGLISH as en } from "../i18n/catalogs.js"
import type { Messages } from "../i18n/en.js"
import { own, signinErrorText } from "./messages.js"
import { WEBAUTHN_SCRIPT } from "./assets.js"
import { emailButton, fieldLabel, signInWith } from "./signin-labels.js"
import { acceptsEmails, acceptsUsernames, identifierField, identifierKind, isIdentifierFirst, LOGIN_HINT, type IdentifierKind } from "./signin-identifier.js"

export type { CredentialsModel, EmailModel, FieldModel, IdentifierModel, OAuthModel, PasskeyCreateModel, SigninModel, SsoModel, WebAuthnModel } from "./signin-model.js"
import type { CredentialsModel, FieldModel, IdentifierModel, SigninModel, SsoModel, WebAuthnModel } from "./signin-model.js"

const AUTOCOMPLETE: Record<string, string> = { password: "current-password", email: "email", username: "username" }

function fields(provider: CredentialsConfig, t: Messages): FieldModel[] {
  return Object.entries(provider.credentials ?? {}).map(([name, input]) => ({
    id: `${provider.id}-${name}`,
    name,
    label: fieldLabel(name, input.label, t),
    type: input.type ?? "text",
    placeholder: input.placeholder,
    autocomplete: input.autocomplete ?? own(AUTOCOMPLETE, name) ?? own(AUTOCOMPLETE, input.type),
    required: input.required ?? true,
  }))
}

/**
 * The label of the passkey create section's email field: the app's own, or, when it is the
 * providers' default ("Email"), the catalog's "Email (to create an account)": the page's other
 * address field (the magic link's) is "Email", and each field says what it is for (issue #12).
 */
function passkeyEmailLabel(label: string | undefined, t: Messages): string {
  return label === undefined || label === en["signin.email.label"] ? t["signin.passkey.emailLabel"] : label
}

function safeLogo(logo: unknown): string | undefined {
  return typeof logo === "string" && (/^https?:\/\//i.test(logo) || /^\/(?![/\\])/.test(logo)) ? logo : undefined
}

export interface SigninInput {
  providers: readonly Provider[]
  baseUrl: string
  csrfToken: string
  callbackUrl: string
  error?: string
  /** The catalog of the page's language (default: the core's English texts, without the capabilities'). */
  t?: Messages
  /** The identifier typed on step one (or sent back with an error), already trimmed and bounded. */
  loginHint?: string
  /** The id of the provider this browser last signed in with (the "Last used" cookie). */
  lastUsed?: string
  /**
   * Enterprise sign-in is on (issue #28): the page links to "Sign in with SSO". `enforcedDomain`:
   * the typed address's domain is verified by an organization that requires its SSO, so the
   * second step offers only that.
   */
  sso?: { enforcedDomain?: string }
}

/** The first step's field: "Email", "Username" (or the form's own label), or "Email or username". */
function identifierLabel(providers: readonly Provider[], t: Messages): { label: string; type: "email" | "text" } {
  const usernames = acceptsUsernames(providers)
  if (!usernames) return { label: t["signin.email.label"], type: "email" }
  const onlyUsernames = !providers.some((provider) => provider.type === "email" || (provider.type === "credentials" && identifierField(provider)?.emailOnly))
  if (!onlyUsernames) return { label: t["signin.identifier.either"], type: "text" }
  const credentials = providers.find((provider): provider is CredentialsConfig => provider.type === "credentials" && identifierField(provider) !== undefined)
  const field = credentials && identifierField(credentials)
  return { label: field ? fieldLabel(field.name, field.label, t) : t["signin.field.username"], type: "text" }
}

/**
 * Whether a provider is offered to an identifier of `kind` on the `choose` step. A username form
 * takes an address only when no form asks for addresses: with a password-accounts form beside a
 * username form, an address gets the one password field that can take it, not two.
 */
function offered(provider: Provider, kind: IdentifierKind, providers: readonly Provider[]): boolean {
  if (provider.type === "credentials") {
    const field = identifierField(provider)
    if (field === undefined) return false
    if (kind === "username") return !field.emailOnly
    return field.emailOnly || !providers.some((other) => other.type === "credentials" && identifierField(other)?.emailOnly)
  }
  if (provider.type === "email") return kind === "email"
  return provider.type === "webauthn"
}

function credentialsEntry(provider: CredentialsConfig, input: SigninInput, t: Messages): CredentialsModel {
  const entry: CredentialsModel = { id: provider.id, name: provider.name, action: `${input.baseUrl}/callback/${provider.id}`, fields: fields(provider, t), button: signInWith(provider, t) }
  // A password provider (gatehouse/providers/password): translated labels, and its sign-up and forgot-password pages.
  if ("password" in provider && typeof provider.password === "object") {
    entry.fields = entry.fields.map((field) => ({ ...field, label: field.name === "password" ? t["password.field.password"] : t["password.field.email"] }))
    const query = new URLSearchParams({ callbackUrl: input.callbackUrl })
    entry.links = [
      { href: `${input.baseUrl}/signup?${query}`, text: t["password.signup.link"] },
      { href: `${input.baseUrl}/forgot-password?${query}`, text: t["password.forgot.link"] },
    ]
  }
  return entry
}

function webauthnEntry(provider: Provider & { type: "webauthn" }, emailProvider: Provider | undefined, input: SigninInput, t: Messages): WebAuthnModel {
  return {
    id: provider.id,
    name: provider.name,
    action: `${input.baseUrl}/callback/${provider.id}`,
    optionsUrl: `${input.baseUrl}/webauthn-options/${provider.id}`,
    conditional: provider.enableConditionalUI !== false,
    emailLabel: passkeyEmailLabel(provider.formFields?.email?.label, t),
    button: signInWith(provider, t),
    create: emailProvider
      ? {
          viaEmail: {
            action: `${input.baseUrl}/signin/${emailProvider.id}`,
            callbackUrl: `${input.baseUrl}/passkey-setup/${provider.id}?${new URLSearchParams({ callbackUrl: input.callbackUrl })}`,
          },
        }
      : {},
  }
}

/** Which step: two steps when more than one method takes the identifier; the second once there is one it can use. */
function stepOf(input: SigninInput): { step: SigninModel["step"]; kind?: IdentifierKind; invalid?: boolean } {
  if (!isIdentifierFirst(input.providers)) return { step: "single" }
  if (input.loginHint === undefined) return { step: "identify" }
  const kind = identifierKind(input.loginHint)
  // Only addresses are taken, and this is not one: step one again, the error beside the field.
  if (kind === "username" && !acceptsUsernames(input.providers) && acceptsEmails(input.providers)) return { step: "identify", invalid: true }
  return { step: "choose", kind }
}

export function signinModel(input: SigninInput): SigninModel {
  const t = input.t ?? (en as Messages)
  const { step, kind, invalid } = stepOf(input)
  const model: SigninModel = { csrfToken: input.csrfToken, callbackUrl: input.callbackUrl, step, credentials: [], email: [], oauth: [], webauthn: [] }
  const emailProvider = input.providers.find((provider) => provider.type === "email")
  const hint = input.loginHint
  for (const provider of input.providers) {
    // The second step lists only what this identifier can use; the first, what needs no identifier.
    if (step === "choose" && !offered(provider, kind as IdentifierKind, input.providers)) continue
    if (step === "identify" && provider.type !== "oauth" && provider.type !== "oidc" && provider.type !== "webauthn" && !(provider.type === "credentials" && !identifierField(provider))) continue
    const lastUsed = provider.id === input.lastUsed ? { lastUsed: true } : {}
    if (provider.type === "credentials") {
      const entry = credentialsEntry(provider, input, t)
      const field = identifierField(provider)
      if (field && hint !== undefined && step === "choose") {
        entry.identifier = { name: field.name, value: hint }
        entry.fields = entry.fields.filter((candidate) => candidate.name !== field.name)
      } else if (field && hint !== undefined) {
        entry.fields = entry.fields.map((candidate) => (candidate.name === field.name ? { ...candidate, value: hint } : candidate))
      }
      model.credentials.push({ ...entry, ...lastUsed })
    } else if (provider.type === "email") {
      const typed = hint !== undefined && identifierKind(hint) === "email" ? { value: hint, ...(step === "choose" && { fixed: true }) } : {}
      model.email.push({ id: provider.id, name: provider.name, action: `${input.baseUrl}/signin/${provider.id}`, button: emailButton(provider, t), ...typed, ...lastUsed })
    } else if (provider.type === "webauthn") {
      const entry = webauthnEntry(provider, emailProvider, input, t)
      if (step === "choose") entry.create = kind === "email" ? { ...entry.create, email: hint } : {}
      model.webauthn.push({ ...entry, ...lastUsed })
      model.scriptUrl = `${input.baseUrl}/assets/${WEBAUTHN_SCRIPT}`
    } else {
      model.oauth.push({ id: provider.id, name: provider.name, action: `${input.baseUrl}/signin/${provider.id}`, logo: safeLogo(provider.style?.logo), button: signInWith(provider, t), ...lastUsed })
    }
  }
  // With several credentials forms, each button names its provider; with one, it says "Sign in".
  // (On step one, beside "Continue", a form without an identifier names its provider.)
  if (model.credentials.length === 1 && step !== "identify") model.credentials[0]!.button = t["signin.submit"]
  if (step !== "single") model.identifier = identifierModel(input, t, invalid)
  const signup = input.providers.find((provider) => provider.type === "credentials" && "password" in provider && typeof provider.password === "object")
  if (signup && step === "identify") model.signupUrl = `${input.baseUrl}/signup?${new URLSearchParams({ callbackUrl: input.callbackUrl })}`
  if (input.sso) ssoEntry(model, input, t, step === "choose" && kind === "email" ? input.sso.enforcedDomain : undefined)
  placeError(model, input, t)
  const next = model.credentials[0]?.fields.find((field) => field.error) ?? (step === "choose" ? model.credentials[0]?.fields[0] : undefined)
  if (next) next.autofocus = true
  // The first email field also offers passkeys in the browser's autofill (conditional UI): the
  // passkey button itself asks for no address. On step one, the identifier field does.
  const first = model.email[0]
  if (step === "single" && first && model.webauthn.some((passkey) => passkey.conditional)) first.passkeyAutofill = true
  return model
}

/** The SSO link; for an address whose domain requires SSO, SSO alone (the other methods would be refused). */
function ssoEntry(model: SigninModel, input: SigninInput, t: Messages, enforcedDomain: string | undefined): void {
  const query = new URLSearchParams({ callbackUrl: input.callbackUrl, ...(input.loginHint !== undefined && { [LOGIN_HINT]: input.loginHint }) })
  const entry: SsoModel = { url: `${input.baseUrl}/sso?${query}` }
  if (enforcedDomain !== undefined && input.loginHint !== undefined) {
    entry.only = { action: `${input.baseUrl}/sso`, identifier: input.loginHint, message: t["sso.enforced"].replace("{domain}", enforcedDomain) }
    model.credentials = []
    model.email = []
    model.webauthn = []
    delete model.scriptUrl
  }
  model.sso = entry
}

function identifierModel(input: SigninInput, t: Messages, invalid: boolean | undefined): IdentifierModel {
  const { label, type } = identifierLabel(input.providers, t)
  const changeUrl = `${input.baseUrl}/signin?${new URLSearchParams({ callbackUrl: input.callbackUrl })}`
  return { action: `${input.baseUrl}/signin`, name: LOGIN_HINT, label, type, value: input.loginHint, changeUrl, ...(invalid && { error: t["signin.identifier.invalidEmail"] }) }
}

/**
 * An error beside the field it is about (issue #26): wrong credentials at the form's secret field
 * (its last field, the password), an email that could not be sent at the email form; any other
 * error (or one whose form is not on this step) at the top of the page.
 */
function placeError(model: SigninModel, input: SigninInput, t: Messages): void {
  if (!input.error) return
  const text = signinErrorText(t, input.error)
  // The form the identifier was typed for (the first with an identifier field), else the only one.
  const credentials = model.credentials.find((entry) => entry.identifier || entry.fields.some((field) => field.value !== undefined)) ?? (model.credentials.length === 1 ? model.credentials[0] : undefined)
  const secret = credentials?.fields.findLast((field) => field.type === "password") ?? credentials?.fields.at(-1)
  if (input.error === "CredentialsSignin" && secret) {
    secret.error = text
    return
  }
  const email = model.email[0]
  if (input.error === "EmailSignin" && model.email.length === 1 && email) {
    email.error = text
    return
  }
  model.error = text
}
