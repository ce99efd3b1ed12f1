/**
 * The identifier-first sign-in page's model (issue #26): which configurations have two steps,
 * what the identifier field is called, what step two offers to an address and to a username, the
 * built-in names and labels in the page's language, and "Last used".
 */
import { signinModel } from "../../../lib/pages/signin.js"
import { identifierField, identifierKind, isIdentifierFirst, readIdentifier } from "../../../lib/pages/signin-identifier.js"
import { BUILT_IN, ENGLISH } from "../../../lib/core/built-in-texts.js"
import Credentials from "../../../lib/providers/credentials.js"
import type { CredentialInput, Provider } from "../../../lib/providers/types.js"

const BASE = "https://app.example/auth"
const de = BUILT_IN.de!

const form = (credentials: Record<string, CredentialInput>, id = "credentials", name = "Credentials") => Credentials({ id, name, credentials, authorize: () => null })
const usernameForm = form({ username: { label: "Username" }, password: { label: "Password", type: "password" } })
const mail: Provider = { id: "mail", name: "Email", type: "email" }
const passkey: Provider = { id: "passkey", name: "Passkey", type: "webauthn" }
const github: Provider = { id: "github", name: "GitHub", type: "oauth" }

const model = (providers: Provider[], extra: { loginHint?: string; lastUsed?: string; t?: typeof de } = {}) =>
  signinModel({ providers, baseUrl: BASE, csrfToken: "c", callbackUrl: "https://app.example/", t: ENGLISH, ...extra })

describe("identifiers", () => {
  test("an address has an @ between two non-empty parts; anything else is a username", () => {
    expect(["ada@example.com", "root@localhost"].map(identifierKind)).toEqual(["email", "email"])
    expect(["ada", "@example.com", "ada@", "a b@c.d"].map(identifierKind)).toEqual(["username", "username", "username", "username"])
  })

  test("read trimmed; empty or longer than 320 characters reads as none", () => {
    expect(readIdentifier("  ada  ")).toBe("ada")
    expect([readIdentifier(""), readIdentifier("   "), readIdentifier(undefined), readIdentifier("a".repeat(321))]).toEqual([undefined, undefined, undefined, undefined])
  })

  test("a credentials form's identifier field: email or username by name, type or autocomplete; none for a code-only form", () => {
    expect(identifierField(usernameForm)).toEqual({ name: "username", label: "Username", emailOnly: false })
    expect(identifierField(form({ email: {}, password: { type: "password" } }))).toEqual({ name: "email", label: undefined, emailOnly: true })
    expect(identifierField(form({ login: { autocomplete: "username" } }))).toMatchObject({ name: "login", emailOnly: false })
    expect(identifierField(form({ code: { autocomplete: "one-time-code" } }))).toBeUndefined()
  })

  test("two steps only with more than one method that takes an identifier", () => {
    expect(isIdentifierFirst([github, usernameForm])).toBe(false)
    expect(isIdentifierFirst([github, mail])).toBe(false)
    expect(isIdentifierFirst([passkey])).toBe(false)
    expect(isIdentifierFirst([usernameForm, passkey])).toBe(true)
    expect(isIdentifierFirst([mail, passkey])).toBe(true)
    expect(isIdentifierFirst([form({ code: {} }), passkey])).toBe(false)
  })
})

describe("the steps", () => {
  test("step one's field: Email when only addresses are taken, the form's label when only usernames, else Email or username", () => {
    expect(model([mail, passkey]).identifier).toMatchObject({ label: "Email", type: "email", name: "login_hint", action: `${BASE}/signin` })
    expect(model([form({ username: { label: "Staff ID" }, password: { type: "password" } }), passkey]).identifier).toMatchObject({ label: "Staff ID", type: "text" })
    expect(model([usernameForm, mail]).identifier).toMatchObject({ label: "Email or username", type: "text" })
    expect(model([usernameForm, mail], { t: de }).identifier!.label).toBe(de["signin.identifier.either"])
  })

  test("step two for a username offers no magic link; for an address, everything, the identifier carried", () => {
    const forName = model([usernameForm, mail, passkey], { loginHint: "ada" })
    expect(forName.step).toBe("choose")
    expect(forName.email).toEqual([])
    expect(forName.credentials[0]).toMatchObject({ identifier: { name: "username", value: "ada" }, button: "Sign in" })
    expect(forName.webauthn[0]!.create).toEqual({})
    const forAddress = model([usernameForm, mail, passkey], { loginHint: "ada@example.com" })
    expect(forAddress.email[0]).toMatchObject({ value: "ada@example.com", fixed: true })
    expect(forAddress.webauthn[0]!.create.email).toBe("ada@example.com")
    expect(forAddress.credentials[0]!.fields.map((field) => field.name)).toEqual(["password"])
  })

  test("a username where only addresses are taken: step one again with the error and the value", () => {
    const again = model([mail, passkey], { loginHint: "ada" })
    expect(again.step).toBe("identify")
    expect(again.identifier).toMatchObject({ value: "ada", error: ENGLISH["signin.identifier.invalidEmail"] })
  })
})

describe("words in the page's language", () => {
  test("built-in labels and names are the catalog's; the app's own stay as written", () => {
    const german = model([usernameForm, form({ pin: { label: "PIN-Nummer", type: "password" } }, "pin", "Firmen-PIN"), github], { t: de })
    expect(german.credentials[0]!.fields.map((field) => field.label)).toEqual([de["signin.field.username"], de["signin.field.password"]])
    expect(german.credentials.map((entry) => entry.button)).toEqual(["Mit Passwort anmelden", "Mit Firmen-PIN anmelden"])
    expect(german.credentials[1]!.fields[0]!.label).toBe("PIN-Nummer")
    expect(german.oauth[0]!.button).toBe("Mit GitHub anmelden")
    expect(model([passkey], { t: de }).webauthn[0]!.button).toBe(de["signin.passkey.button"])
    expect(model([{ ...passkey, name: "YubiKey" }], { t: de }).webauthn[0]!.button).toBe("Mit YubiKey anmelden")
  })

  test("the email button says link or code unless codes are off", () => {
    expect(model([mail]).email[0]!.button).toBe("Email me a link or code")
    expect(model([{ ...mail, code: false } as Provider]).email[0]!.button).toBe("Email me a sign-in link")
  })
})

describe("Last used", () => {
  test("the provider is marked wherever it is shown, and its group comes first on step two", () => {
    expect(model([github, usernameForm], { lastUsed: "github" }).oauth[0]!.lastUsed).toBe(true)
    const second = model([usernameForm, mail, passkey], { loginHint: "ada@example.com", lastUsed: "mail" })
    expect(second.email[0]!.lastUsed).toBe(true)
    expect(second.credentials[0]!.lastUsed).toBeUndefined()
  })
})
