/**
 * The page models and pageResponse in a given language, without HTTP: the sign-in model's texts,
 * the passkey email label, the error model re-read in another language, and pages rendered
 * without a request (requireAuth's 503 page): the fixed locale, else English, and no Vary.
 */
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { BUILT_IN } from "../../lib/core/built-in-texts.js"
import { errorModel, localizeErrorModel } from "../../lib/pages/error.js"
import { pageResponse } from "../../lib/pages/page.js"
import { signinModel } from "../../lib/pages/signin.js"
import type { Provider } from "../../lib/providers/types.js"
import { testConfig } from "../helpers/app.js"

const de = BUILT_IN.de!
const LINKS = { signIn: "https://app.example/auth/signin", home: "https://app.example" }

describe("signinModel in German", () => {
  const model = (providers: Provider[], error?: string) => signinModel({ providers, baseUrl: "https://app.example/auth", csrfToken: "c", callbackUrl: "/", error, t: de })

  test("error texts come from the catalog", () => {
    expect(model([], "CredentialsSignin").error).toBe(de["signin.error.CredentialsSignin"])
    expect(model([], "constructor").error).toBe(de["signin.error.default"])
  })

  test("the passkey create label: the catalog's when the provider has none or the providers' default, else the app's", () => {
    const passkey = (label?: string): Provider => ({ id: "passkey", name: "Passkey", type: "webauthn", formFields: { email: { label } } }) as Provider
    expect(model([passkey()]).webauthn[0]!.emailLabel).toBe(de["signin.passkey.emailLabel"])
    // The providers' default "Email" reads as the catalog's create label too (issue #12: the page's
    // two address fields each say what they are for).
    expect(model([passkey("Email")]).webauthn[0]!.emailLabel).toBe(de["signin.passkey.emailLabel"])
    expect(model([passkey("Ihre Adresse")]).webauthn[0]!.emailLabel).toBe("Ihre Adresse")
  })
})

describe("error models", () => {
  test("in a catalog, and re-read in another with the same links", () => {
    const english = errorModel("Verification", LINKS)
    expect(english.type).toBe("Verification")
    const german = localizeErrorModel(english, de)
    expect(german).toEqual({ type: "Verification", status: 403, heading: de["error.Verification.heading"], message: de["error.Verification.message"], link: { href: LINKS.signIn, text: de["link.signInAgain"] } })
    expect(errorModel("Verification", LINKS, de)).toEqual(german)
    expect(localizeErrorModel(errorModel("nope", LINKS), de).link).toEqual({ href: LINKS.home, text: de["link.home"] })
  })
})

describe("pageResponse without a request", () => {
  const model = errorModel("AdapterError", LINKS)

  test("English by default, Content-Language set, no Vary", () => {
    const response = pageResponse({ config: resolveConfig(testConfig()) }, "error", model.heading, model, model.status)
    expect(response.status).toBe(503)
    expect(response.headers?.["Content-Language"]).toBe("en")
    expect(response.headers?.Vary).toBeUndefined()
    expect(response.body).toContain("<h1>Temporarily unavailable</h1>")
  })

  test("the fixed locale when there is one", () => {
    const response = pageResponse({ config: resolveConfig(testConfig({ locale: "de" })) }, "error", model.heading, model, model.status)
    expect(response.headers?.["Content-Language"]).toBe("de")
    expect(response.body).toContain('<html lang="de">')
    expect(response.body).toContain(`<h1>${de["error.AdapterError.heading"]}</h1>`)
    expect(response.body).toContain(`<title>${de["error.AdapterError.heading"]}</title>`)
  })
})

describe("titles", () => {
  test("come from the catalog, not from the English title the caller passes", () => {
    const config = resolveConfig(testConfig({ locale: "ja" }))
    const response = pageResponse({ config }, "verify-request", "Check your email", { home: "/" })
    expect(response.headers?.["Content-Language"]).toBe("ja")
    expect(String(response.body)).toContain(`<title>${BUILT_IN.ja!["verify.heading"]}</title>`)
  })
})
