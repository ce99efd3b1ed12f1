/** The sign-in page's view model: one entry per configured provider, grouped by kind. */
import type { CredentialsConfig, Provider } from "../providers/types.js"
import { CORE_ENGLISH as en } from "../i18n/catalogs.js"
import type { Messages } from "../i18n/en.js"
import { own, signinErrorText } from "./messages.js"
import { WEBAUTHN_SCRIPT } from "./assets.js"

export interface FieldModel {
  id: string
  name: string
  label: string
  type: string
  placeholder?: string
  autocomplete?: string
  required: boolean
}

export interface SigninModel {
  csrfToken: string
  callbackUrl: string
  error?: string
  credentials: Array<{ id: string; name: string; action: string; fields: FieldModel[]; links?: Array<{ href: string; text: string }> }>
  /** `passkeyAutofill`: this field also offers the site's passkeys (conditional UI). */
  email: Array<{ id: string; name: string; action: string; passkeyAutofill?: boolean }>
  oauth: Array<{ id: string; name: string; action: string; logo?: string }>
  webauthn: Array<{ id: string; name: string; action: string; optionsUrl: string; conditional: boolean; emailLabel: string; create: PasskeyCreateModel }>
  /** The passkey script, when the page has a passkey form. */
  scriptUrl?: string
}

/**
 * How a first passkey is created from the sign-in page (issue #12). With an email provider, the
 * address is proved first: a magic link whose callback is the passkey set-up page, where the
 * signed-in (verified) user creates the passkey. Without one, the ceremony runs at once for a new
 * user whose address stays unverified until a proving sign-in (README, "Account linking and
 * email trust").
 */
export interface PasskeyCreateModel {
  viaEmail?: { action: string; callbackUrl: string }
}

const AUTOCOMPLETE: Record<string, string> = { password: "current-password", email: "email", username: "username" }

function fields(provider: CredentialsConfig): FieldModel[] {
  return Object.entries(provider.credentials ?? {}).map(([name, input]) => ({
    id: `${provider.id}-${name}`,
    name,
    label: input.label ?? name.charAt(0).toUpperCase() + name.slice(1),
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

export function signinModel(input: {
  providers: readonly Provider[]
  baseUrl: string
  csrfToken: string
  callbackUrl: string
  error?: string
  /** The catalog of the page's language (default: the core's English texts, without the capabilities'). */
  t?: Messages
}): SigninModel {
  const t = input.t ?? (en as Messages)
  const model: SigninModel = {
    csrfToken: input.csrfToken,
    callbackUrl: input.callbackUrl,
    error: input.error ? signinErrorText(t, input.error) : undefined,
    credentials: [],
    email: [],
    oauth: [],
    webauthn: [],
  }
  const emailProvider = input.providers.find((provider) => provider.type === "email")
  for (const provider of input.providers) {
    const signinUrl = `${input.baseUrl}/signin/${provider.id}`
    if (provider.type === "credentials") {
      const entry: SigninModel["credentials"][number] = { id: provider.id, name: provider.name, action: `${input.baseUrl}/callback/${provider.id}`, fields: fields(provider) }
      // A password provider (gatehouse/providers/password): translated labels, and its sign-up and forgot-password pages.
      if ("password" in provider && typeof provider.password === "object") {
        entry.fields = entry.fields.map((field) => ({ ...field, label: field.name === "password" ? t["password.field.password"] : t["password.field.email"] }))
        const query = new URLSearchParams({ callbackUrl: input.callbackUrl })
        entry.links = [
          { href: `${input.baseUrl}/signup?${query}`, text: t["password.signup.link"] },
          { href: `${input.baseUrl}/forgot-password?${query}`, text: t["password.forgot.link"] },
        ]
      }
      model.credentials.push(entry)
    } else if (provider.type === "email") {
      model.email.push({ id: provider.id, name: provider.name, action: signinUrl })
    } else if (provider.type === "webauthn") {
      model.webauthn.push({
        id: provider.id,
        name: provider.name,
        action: `${input.baseUrl}/callback/${provider.id}`,
        optionsUrl: `${input.baseUrl}/webauthn-options/${provider.id}`,
        conditional: provider.enableConditionalUI !== false,
        emailLabel: passkeyEmailLabel(provider.formFields?.email?.label, t),
        create: emailProvider
          ? {
              viaEmail: {
                action: `${input.baseUrl}/signin/${emailProvider.id}`,
                callbackUrl: `${input.baseUrl}/passkey-setup/${provider.id}?${new URLSearchParams({ callbackUrl: input.callbackUrl })}`,
              },
            }
          : {},
      })
      model.scriptUrl = `${input.baseUrl}/assets/${WEBAUTHN_SCRIPT}`
    } else {
      model.oauth.push({ id: provider.id, name: provider.name, action: signinUrl, logo: safeLogo(provider.style?.logo) })
    }
  }
  // The first email field also offers passkeys in the browser's autofill (conditional UI): the
  // passkey button itself asks for no address.
  const first = model.email[0]
  if (first && model.webauthn.some((passkey) => passkey.conditional)) first.passkeyAutofill = true
  return model
}
