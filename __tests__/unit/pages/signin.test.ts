/**
 * The sign-in page's view model (lib/pages/signin.ts): providers grouped by kind, the credentials
 * form's fields with their defaults, the `error` value turned into a message from a fixed table
 * (never echoed), and provider logos that are not http(s) URLs or site paths dropped.
 */
import { signinModel } from "../../../lib/pages/signin.js"
import { DEFAULT_SIGNIN_ERROR, SIGNIN_ERRORS } from "../../../lib/core/error-messages.js"
import { ENGLISH } from "../../../lib/core/built-in-texts.js"
import Credentials from "../../../lib/providers/credentials.js"
import type { CredentialInput, Provider } from "../../../lib/providers/types.js"

const BASE = "https://app.example/auth"

function credentialsProvider(credentials: Record<string, CredentialInput> | undefined, id = "credentials", name = "Credentials"): Provider {
  const provider = Credentials({ id, name, authorize: () => null })
  return { ...provider, credentials: credentials as Record<string, CredentialInput> }
}

const oauth = (id: string, logo?: unknown): Provider =>
  ({ id, name: `${id} name`, type: "oauth", ...(logo === undefined ? {} : { style: { logo: logo as string } }) }) as Provider

// The built-in English catalog, the capabilities' texts too (their `signin.error.<Type>`), as a request's.
function model(providers: Provider[], error?: string, loginHint?: string) {
  return signinModel({ providers, baseUrl: BASE, csrfToken: "csrf-token-value", callbackUrl: "https://app.example/dashboard", error, t: ENGLISH, loginHint })
}

describe("signinModel: providers", () => {
  test("copies the CSRF token and callback URL, and has no error without an error value", () => {
    const result = model([])
    expect(result.csrfToken).toBe("csrf-token-value")
    expect(result.callbackUrl).toBe("https://app.example/dashboard")
    expect(result.error).toBeUndefined()
    expect(result).toEqual({ csrfToken: "csrf-token-value", callbackUrl: "https://app.example/dashboard", step: "single", credentials: [], email: [], oauth: [], webauthn: [] })
  })

  test("groups providers by kind, keeping configuration order inside each group", () => {
    const providers: Provider[] = [
      oauth("github"),
      { id: "mail", name: "Email", type: "email" },
      credentialsProvider({ username: {} }, "password-login", "Password"),
      { id: "passkey", name: "Passkey", type: "webauthn" },
      { id: "google", name: "Google", type: "oidc" },
      oauth("gitlab"),
      { id: "magic", name: "Magic link", type: "email" },
      credentialsProvider({ code: {} }, "otp", "One-time code"),
    ]
    // Step two for an address: every group of what an address can use (the OAuth buttons are step one's).
    const result = model(providers, undefined, "ada@example.com")
    expect(model(providers).oauth.map((p) => p.id)).toEqual(["github", "google", "gitlab"])
    expect(result.email.map((p) => p.id)).toEqual(["mail", "magic"])
    // The one-time-code form takes no identifier: it is on step one.
    expect(result.credentials.map((p) => p.id)).toEqual(["password-login"])
    expect(model(providers).credentials.map((p) => p.id)).toEqual(["otp"])
    expect(result.webauthn.map((p) => p.id)).toEqual(["passkey"])
    expect(result.credentials.map((p) => p.name)).toEqual(["Password"])
    expect(result.email.map((p) => p.name)).toEqual(["Email", "Magic link"])
    expect(result.webauthn[0]!.name).toBe("Passkey")
    expect(model(providers).oauth[1]!.name).toBe("Google")
  })

  test("credentials and passkey forms post to the callback; OAuth and email post to signin/<id>", () => {
    const providers: Provider[] = [credentialsProvider({ username: {} }), oauth("github"), { id: "mail", name: "Email", type: "email" }, { id: "passkey", name: "Passkey", type: "webauthn" }]
    const result = { ...model(providers, undefined, "ada@example.com"), oauth: model(providers).oauth }
    expect(result.credentials[0]!.action).toBe(`${BASE}/callback/credentials`)
    expect(result.oauth[0]!.action).toBe(`${BASE}/signin/github`)
    expect(result.email[0]!.action).toBe(`${BASE}/signin/mail`)
    // The passkey form posts the ceremony's response; its script first fetches the options.
    expect(result.webauthn[0]).toMatchObject({ action: `${BASE}/callback/passkey`, optionsUrl: `${BASE}/webauthn-options/passkey`, conditional: true })
    expect(result.scriptUrl).toBe(`${BASE}/assets/webauthn.js`)
  })

  test("only the model's own fields are exposed for non-credentials providers (no secrets or functions)", () => {
    const secretive = { id: "github", name: "GitHub", type: "oauth", clientSecret: "s3cr3t", profile: () => ({}) } as unknown as Provider
    const result = model([secretive, { id: "mail", name: "Email", type: "email", server: "smtp://user:pw@host" } as unknown as Provider])
    expect(result.oauth[0]).toEqual({ id: "github", name: "GitHub", action: `${BASE}/signin/github`, logo: undefined, button: "Sign in with GitHub" })
    expect(result.email[0]).toEqual({ id: "mail", name: "Email", action: `${BASE}/signin/mail`, button: "Email me a link or code" })
    expect(JSON.stringify(result)).not.toContain("s3cr3t")
    expect(JSON.stringify(result)).not.toContain("user:pw")
  })
})

describe("signinModel: credentials fields", () => {
  test("one field per declared credential, in order, with id <provider>-<name>", () => {
    const result = model([credentialsProvider({ username: { label: "Username" }, password: { label: "Password", type: "password" } }, "login")])
    const fields = result.credentials[0]!.fields
    expect(fields.map((f) => f.name)).toEqual(["username", "password"])
    expect(fields.map((f) => f.id)).toEqual(["login-username", "login-password"])
  })

  test("labels: the declared label, else the name with a capital first letter", () => {
    const fields = model([credentialsProvider({ username: {}, otp: { label: "One-time code" }, x: {}, "pin-code": {} })]).credentials[0]!.fields
    expect(fields.map((f) => f.label)).toEqual(["Username", "One-time code", "X", "Pin-code"])
  })

  test("types: the declared type, else text", () => {
    const fields = model([credentialsProvider({ username: {}, password: { type: "password" }, age: { type: "number" }, mail: { type: "email" } })]).credentials[0]!.fields
    expect(fields.map((f) => f.type)).toEqual(["text", "password", "number", "email"])
  })

  test("autocomplete defaults: by field name, else by type; a declared value wins", () => {
    const fields = model([
      credentialsProvider({
        username: {},
        password: { type: "password" },
        email: {},
        secret: { type: "password" },
        contact: { type: "email" },
        code: {},
        login: { autocomplete: "username" },
        newPassword: { type: "password", autocomplete: "new-password" },
        otp: { autocomplete: "one-time-code" },
      }),
    ]).credentials[0]!.fields
    const byName = Object.fromEntries(fields.map((f) => [f.name, f.autocomplete]))
    expect(byName).toEqual({
      username: "username",
      password: "current-password",
      email: "email",
      secret: "current-password",
      contact: "email",
      code: undefined,
      login: "username",
      newPassword: "new-password",
      otp: "one-time-code",
    })
  })

  test("a password-named field keeps current-password whatever its type", () => {
    const fields = model([credentialsProvider({ password: {} })]).credentials[0]!.fields
    expect(fields[0]).toMatchObject({ type: "text", autocomplete: "current-password" })
  })

  test("required defaults to true; required: false is kept; placeholder passes through", () => {
    const fields = model([credentialsProvider({ username: { placeholder: "jsmith" }, nickname: { required: false } })]).credentials[0]!.fields
    expect(fields[0]).toEqual({ id: "credentials-username", name: "username", label: "Username", type: "text", placeholder: "jsmith", autocomplete: "username", required: true })
    expect(fields[1]).toMatchObject({ name: "nickname", required: false, placeholder: undefined, autocomplete: undefined })
  })

  test("a credentials provider without declared fields has an empty form", () => {
    expect(model([credentialsProvider(undefined)]).credentials[0]!.fields).toEqual([])
    expect(model([credentialsProvider({})]).credentials[0]!.fields).toEqual([])
  })

  test.each(["toString", "constructor", "valueOf", "hasOwnProperty"])(
    "a field named %s gets no inherited Object.prototype value as its autocomplete",
    (name) => {
      const field = model([credentialsProvider({ [name]: {} })]).credentials[0]!.fields[0]!
      // The AUTOCOMPLETE lookup must only see its own entries, like the error tables do.
      expect(field.autocomplete).toBeUndefined()
    },
  )

  test.each(["toString", "constructor"])("a field whose type is %s gets no inherited autocomplete either", (type) => {
    const field = model([credentialsProvider({ code: { type } })]).credentials[0]!.fields[0]!
    expect(field.autocomplete).toBeUndefined()
  })
})

describe("signinModel: error values", () => {
  test.each(Object.keys(SIGNIN_ERRORS))("%s selects its message from SIGNIN_ERRORS", (value) => {
    const result = model([], value)
    expect(result.error).toBe(SIGNIN_ERRORS[value])
    expect(result.error).not.toBe(DEFAULT_SIGNIN_ERROR)
  })

  test("every documented sign-in error value has a distinct message", () => {
    const documented = [
      "Signin",
      "OAuthSignin",
      "OAuthCallbackError",
      "OAuthCreateAccount",
      "EmailCreateAccount",
      "Callback",
      "OAuthAccountNotLinked",
      "EmailSignin",
      "CredentialsSignin",
      "SessionRequired",
      "MissingCSRF",
    ]
    const messages = documented.map((value) => model([], value).error)
    for (const message of messages) {
      expect(typeof message).toBe("string")
      expect(message).not.toBe(DEFAULT_SIGNIN_ERROR)
    }
    expect(new Set(messages).size).toBe(documented.length)
  })

  test("no error value (undefined or empty) means no message", () => {
    expect(model([]).error).toBeUndefined()
    expect(model([], "").error).toBeUndefined()
  })

  test.each([
    "Unknown",
    "credentialssignin",
    "CredentialsSignin ",
    "Configuration",
    "AccessDenied",
    "<script>alert(1)</script>",
    "x".repeat(5000),
  ])("an unknown value (%s) gets the default message, never the value", (value) => {
    const result = model([], value)
    expect(result.error).toBe(DEFAULT_SIGNIN_ERROR)
  })

  test.each(["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__defineGetter__", "prototype"])(
    "the prototype key %s gets the default message, not an inherited value",
    (value) => {
      const result = model([], value)
      expect(result.error).toBe(DEFAULT_SIGNIN_ERROR)
      expect(typeof result.error).toBe("string")
    },
  )

  test("the raw error value never appears anywhere in the model", () => {
    const probe = "ProbeValue-<b>9f3a</b>"
    expect(JSON.stringify(model([credentialsProvider({ username: {} }), oauth("github")], probe))).not.toContain("9f3a")
  })
})

describe("signinModel: provider logos", () => {
  test.each([
    "https://cdn.example/logo.svg",
    "http://cdn.example/logo.png",
    "HTTPS://CDN.EXAMPLE/LOGO.PNG",
    "/static/logo.svg",
    "/logo.png?v=2",
  ])("keeps the http(s) URL or site path %s", (logo) => {
    expect(model([oauth("github", logo)]).oauth[0]!.logo).toBe(logo)
  })

  test.each([
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "vbscript:msgbox(1)",
    "//evil.example/logo.png",
    "/\\evil.example/logo.png",
    "logo.png",
    "ftp://files.example/logo.png",
    "https:/evil.example",
    "",
  ])("drops the unsafe logo %j", (logo) => {
    expect(model([oauth("github", logo)]).oauth[0]!.logo).toBeUndefined()
  })

  test.each([[42], [{ toString: () => "https://x.example/a.png" }], [["https://x.example/a.png"]], [null]])("drops a logo that is not a string (%p)", (logo) => {
    expect(model([oauth("github", logo)]).oauth[0]!.logo).toBeUndefined()
  })

  test("no style or no logo means no logo", () => {
    expect(model([oauth("github")]).oauth[0]!.logo).toBeUndefined()
    expect(model([{ id: "github", name: "GitHub", type: "oauth", style: {} }]).oauth[0]!.logo).toBeUndefined()
  })
})
