/**
 * The identity provider's pages (issue #32) as a browser gets them, in each built-in language:
 * consent (Allow / Deny with the CSRF token, each scope in words or by its name, the APIs, what is
 * already allowed, who is signed in and the way to switch), the device flow's code entry (its error
 * beside the field), confirmation and end, the logout question and "signed out", and an OAuth error
 * shown to a person. Every page: its language and title, never cached, one h1, labelled fields,
 * named buttons, nothing that runs code, and the client's own words only ever as text.
 */
import { resolveConfig } from "../../lib/core/config/resolve.js"
import type { RequestContext } from "../../lib/core/context.js"
import type { ResponseInternal } from "../../lib/types.js"
import { consentPage, deviceConfirmPage, deviceDonePage, deviceInputPage, loggedOutPage, logoutPage, providerErrorPage } from "../../lib/identity-provider/page-render.js"
import type { ConsentModel, DeviceConfirmModel, DeviceInputModel } from "../../lib/identity-provider/page-models.js"
import { testConfig } from "../helpers/app.js"
import { attr, byTag, expectNothingActive, parseHtml, textOf, type Element, type Parsed } from "../unit/pages/html.js"

const LOCALES = ["en", "de", "fr", "es", "ja"] as const
type Locale = (typeof LOCALES)[number]

const HOSTILE = "<img src=x onerror=alert(1)>"
const ORIGIN = "http://app.test"

/** A few texts per language, written out (not read from the catalogs) so a wrong or missing text shows. */
const KNOWN: Record<Locale, { consent: string; allow: string; deny: string; openid: string; deviceInput: string; invalid: string; expired: string; missing: string; confirm: string; done: string; aborted: string; logout: string; signOut: string; stay: string; loggedOut: string; error: string }> = {
  en: {
    consent: "Allow access?",
    allow: "Allow",
    deny: "Deny",
    openid: "Know who you are",
    deviceInput: "Connect a device",
    invalid: "This code is not valid. Check it and type it again.",
    expired: "This code has expired. Start again on your device to get a new one.",
    missing: "Type the code your device shows.",
    confirm: "Confirm the device",
    done: "Device connected",
    aborted: "Device not connected",
    logout: "Sign out?",
    signOut: "Sign out",
    stay: "Stay signed in",
    loggedOut: "You are signed out",
    error: "This request cannot be completed",
  },
  de: {
    consent: "Zugriff erlauben?",
    allow: "Erlauben",
    deny: "Ablehnen",
    openid: "wissen, wer Sie sind",
    deviceInput: "Gerät verbinden",
    invalid: "Dieser Code ist ungültig. Prüfen Sie ihn und geben Sie ihn erneut ein.",
    expired: "Dieser Code ist abgelaufen. Beginnen Sie auf Ihrem Gerät erneut, um einen neuen zu erhalten.",
    missing: "Geben Sie den Code ein, den Ihr Gerät anzeigt.",
    confirm: "Gerät bestätigen",
    done: "Gerät verbunden",
    aborted: "Gerät nicht verbunden",
    logout: "Abmelden?",
    signOut: "Abmelden",
    stay: "Angemeldet bleiben",
    loggedOut: "Sie sind abgemeldet",
    error: "Diese Anfrage kann nicht abgeschlossen werden",
  },
  fr: {
    consent: "Autoriser l’accès\u00a0?",
    allow: "Autoriser",
    deny: "Refuser",
    openid: "savoir qui vous êtes",
    deviceInput: "Connecter un appareil",
    invalid: "Ce code n’est pas valide. Vérifiez-le et saisissez-le à nouveau.",
    expired: "Ce code a expiré. Recommencez sur votre appareil pour en obtenir un nouveau.",
    missing: "Saisissez le code affiché par votre appareil.",
    confirm: "Confirmer l’appareil",
    done: "Appareil connecté",
    aborted: "Appareil non connecté",
    logout: "Se déconnecter\u00a0?",
    signOut: "Se déconnecter",
    stay: "Rester connecté",
    loggedOut: "Vous êtes déconnecté",
    error: "Cette demande ne peut pas aboutir",
  },
  es: {
    consent: "¿Permitir el acceso?",
    allow: "Permitir",
    deny: "Denegar",
    openid: "Saber quién es usted",
    deviceInput: "Conectar un dispositivo",
    invalid: "Este código no es válido. Compruébelo y escríbalo de nuevo.",
    expired: "Este código ha caducado. Empiece de nuevo en su dispositivo para obtener uno nuevo.",
    missing: "Escriba el código que muestra su dispositivo.",
    confirm: "Confirmar el dispositivo",
    done: "Dispositivo conectado",
    aborted: "Dispositivo no conectado",
    logout: "¿Cerrar sesión?",
    signOut: "Cerrar sesión",
    stay: "Mantener la sesión",
    loggedOut: "Ha cerrado sesión",
    error: "No se puede completar esta solicitud",
  },
  ja: {
    consent: "アクセスを許可しますか？",
    allow: "許可する",
    deny: "拒否する",
    openid: "あなたが誰かを知る",
    deviceInput: "デバイスを接続",
    invalid: "このコードは無効です。確認して、もう一度入力してください。",
    expired: "このコードは有効期限が切れています。デバイスでもう一度やり直して、新しいコードを取得してください。",
    missing: "デバイスに表示されているコードを入力してください。",
    confirm: "デバイスの確認",
    done: "デバイスを接続しました",
    aborted: "デバイスは接続されていません",
    logout: "ログアウトしますか？",
    signOut: "ログアウト",
    stay: "ログインしたままにする",
    loggedOut: "ログアウトしました",
    error: "この要求は完了できません",
  },
}

const config = resolveConfig(testConfig())

/** A request from a browser that prefers `language`. */
function contextFor(language: Locale): RequestContext {
  const request = { origin: ORIGIN, basePath: "/auth", query: new URLSearchParams(), header: (name: string) => (name === "accept-language" ? language : undefined) }
  return { config, request, baseUrl: `${ORIGIN}/auth`, outCookies: [] } as unknown as RequestContext
}

interface Page {
  parsed: Parsed
  text: string
  form: Element | undefined
}

const clean = (text: string) => text.replace(/\s+/g, " ").trim()
const byId = (parsed: Parsed, id: string) => parsed.elements.find((element) => attr(element, "id") === id)

/**
 * The answer as a browser reads it, with what every page must be: HTML in `language`, not cached,
 * titled `title` with an h1, well formed, nothing active, every field labelled, every button named.
 */
function read(response: ResponseInternal, language: Locale, title: string, status = 200): Page {
  expect(response.status).toBe(status)
  expect(response.headers?.["Cache-Control"]).toBe("no-store")
  expect(response.headers?.["Content-Language"]).toBe(language)
  const parsed = parseHtml(String(response.body))
  expect(parsed.errors).toEqual([])
  expect(attr(byTag(parsed, "html")[0]!, "lang")).toBe(language)
  expect(textOf(byTag(parsed, "title")[0]!)).toBe(title)
  expect(byTag(parsed, "h1")).toHaveLength(1)
  expectNothingActive(parsed)
  for (const input of byTag(parsed, "input").filter((element) => attr(element, "type") !== "hidden")) {
    const label = byTag(parsed, "label").find((element) => attr(element, "for") === attr(input, "id"))
    expect(label && clean(textOf(label)).length > 0).toBe(true)
  }
  for (const button of byTag(parsed, "button")) expect(clean(textOf(button)).length).toBeGreaterThan(0)
  const forms = byTag(parsed, "form")
  expect(forms.length).toBeLessThanOrEqual(1)
  return { parsed, text: clean(textOf(parsed.document)), form: forms[0] }
}

/** The form's fields, as "name=value", the hidden ones and the buttons apart. */
function fieldsOf(page: Page) {
  const inside = page.form ? page.parsed.elements.filter((element) => isInside(element, page.form!)) : []
  const hidden = inside.filter((element) => element.tagName === "input" && attr(element, "type") === "hidden").map((element) => `${attr(element, "name")}=${attr(element, "value")}`)
  const buttons = inside.filter((element) => element.tagName === "button").map((element) => ({ type: attr(element, "type"), name: attr(element, "name"), value: attr(element, "value"), text: clean(textOf(element)) }))
  return { action: page.form && attr(page.form, "action"), method: page.form && attr(page.form, "method"), hidden, buttons }
}

function isInside(element: Element, ancestor: Element): boolean {
  for (let node = element.parentNode as Element | null; node; node = ("parentNode" in node ? node.parentNode : null) as Element | null) if (node === ancestor) return true
  return false
}

function consentModel(overrides: Partial<ConsentModel> = {}): ConsentModel {
  return {
    action: "/auth/oidc-interaction/uid-1",
    csrfToken: "csrf-token-1",
    client: { name: "Photo Printer", uri: "https://printer.example/about" },
    user: { email: "ada@example.com", name: "Ada Lovelace" },
    scopes: ["openid", "profile", "email", "offline_access", "organization", "photos:read"],
    granted: [],
    resources: ["https://api.example/photos"],
    switchAccountUrl: "/auth/signout?callbackUrl=%2Fauth%2Foidc-interaction%2Fuid-1",
    ...overrides,
  }
}

const inputModel = (overrides: Partial<DeviceInputModel> = {}): DeviceInputModel => ({ action: "/auth/oidc/device", xsrf: "xsrf-1", digits: false, ...overrides })

const confirmModel = (overrides: Partial<DeviceConfirmModel> = {}): DeviceConfirmModel => ({
  action: "/auth/oidc/device",
  xsrf: "xsrf-2",
  userCode: "BCDF-GHJK",
  client: { name: "TV App" },
  device: { ip: "203.0.113.7", userAgent: "SmartTV/1.0" },
  ...overrides,
})

describe.each(LOCALES)("the identity provider's pages in %s", (language) => {
  const known = KNOWN[language]
  const ctx = contextFor(language)

  test("consent posts the CSRF token and decision=allow or decision=deny, and says what the app will get, for whom", () => {
    const page = read(consentPage(ctx, consentModel({ granted: ["openid"] })), language, known.consent)
    const { action, method, hidden, buttons } = fieldsOf(page)
    expect({ action, method, hidden }).toEqual({ action: "/auth/oidc-interaction/uid-1", method: "post", hidden: ["csrfToken=csrf-token-1"] })
    expect(buttons).toEqual([
      { type: "submit", name: "decision", value: "allow", text: known.allow },
      { type: "submit", name: "decision", value: "deny", text: known.deny },
    ])
    expect(page.text).toContain("Photo Printer")
    expect(page.text).toContain("Ada Lovelace (ada@example.com)")
    const scopes = byTag(page.parsed, "li").filter((item) => isInside(item, byId(page.parsed, "oidc-consent-scopes")!))
    expect(scopes).toHaveLength(6)
    expect(clean(textOf(scopes[0]!))).toBe(known.openid)
    // Each known scope in words (none shows its raw name); the app's own scope by its name, as code.
    expect(scopes.slice(0, 5).map((item) => page.parsed.elements.filter((element) => element.tagName === "code" && isInside(element, item)).length)).toEqual([0, 0, 0, 0, 0])
    expect(scopes.slice(0, 5).map((item) => clean(textOf(item)))).not.toContain("offline_access")
    expect(scopes[5]!.childNodes.map((node) => node.nodeName)).toEqual(["code"])
    expect(clean(textOf(scopes[5]!))).toBe("photos:read")
    expect(clean(textOf(byId(page.parsed, "oidc-consent-resources")!))).toBe("https://api.example/photos")
    expect(clean(textOf(byId(page.parsed, "oidc-consent-granted")!))).toBe(known.openid)
    expect(attr(byId(page.parsed, "oidc-consent-switch")!, "href")).toBe("/auth/signout?callbackUrl=%2Fauth%2Foidc-interaction%2Fuid-1")
    const website = byTag(page.parsed, "a").find((link) => attr(link, "href") === "https://printer.example/about")
    expect(website && clean(textOf(website))).toBe("https://printer.example/about")
  })

  test("consent shows a hostile client name and website as text, links only an http(s) website, and leaves out empty lists", () => {
    const model = consentModel({ client: { name: HOSTILE, uri: "javascript:alert(1)" }, user: { email: "ada@example.com", name: null }, scopes: [`<b>${HOSTILE}</b>`], resources: [] })
    const response = consentPage(ctx, model)
    const page = read(response, language, known.consent)
    expect(String(response.body)).not.toContain("<img src=x")
    expect(byTag(page.parsed, "img")).toHaveLength(0)
    expect(byTag(page.parsed, "b")).toHaveLength(0)
    expect(clean(textOf(byTag(page.parsed, "h1")[0]!))).toContain(HOSTILE)
    expect(clean(textOf(byId(page.parsed, "oidc-consent-scopes")!))).toBe(`<b>${HOSTILE}</b>`)
    expect(page.text).toContain("javascript:alert(1)")
    expect(byTag(page.parsed, "a").map((link) => attr(link, "href"))).not.toContain("javascript:alert(1)")
    expect(page.text).toContain("ada@example.com")
    expect(page.text).not.toContain("(ada@example.com)")
    expect(byId(page.parsed, "oidc-consent-resources")).toBeUndefined()
    expect(byId(page.parsed, "oidc-consent-granted")).toBeUndefined()
  })

  test("device input posts xsrf and user_code from a labelled field meant for a code", () => {
    const page = read(deviceInputPage(ctx, inputModel()), language, known.deviceInput)
    const { action, method, hidden, buttons } = fieldsOf(page)
    expect({ action, method, hidden }).toEqual({ action: "/auth/oidc/device", method: "post", hidden: ["xsrf=xsrf-1"] })
    expect(buttons).toHaveLength(1)
    expect(buttons[0]!.type).toBe("submit")
    const input = byTag(page.parsed, "input").find((element) => attr(element, "name") === "user_code")!
    expect(isInside(input, page.form!)).toBe(true)
    expect({ autocomplete: attr(input, "autocomplete"), autocapitalize: attr(input, "autocapitalize"), spellcheck: attr(input, "spellcheck"), inputmode: attr(input, "inputmode"), invalid: attr(input, "aria-invalid") }).toEqual({
      autocomplete: "off",
      autocapitalize: "characters",
      spellcheck: "false",
      inputmode: undefined,
      invalid: undefined,
    })
    expect(byTag(page.parsed, "p").filter((element) => attr(element, "role") === "alert")).toHaveLength(0)
    const digits = read(deviceInputPage(ctx, inputModel({ digits: true })), language, known.deviceInput)
    expect(attr(byTag(digits.parsed, "input").find((element) => attr(element, "name") === "user_code")!, "inputmode")).toBe("numeric")
  })

  test.each(["invalid", "expired", "missing"] as const)("device input shows the %s-code error beside the field, with the code typed", (error) => {
    const page = read(deviceInputPage(ctx, inputModel({ error, userCode: `"><script>alert(1)</script>` }), 400), language, known.deviceInput, 400)
    const input = byTag(page.parsed, "input").find((element) => attr(element, "name") === "user_code")!
    expect(attr(input, "aria-invalid")).toBe("true")
    expect(attr(input, "value")).toBe(`"><script>alert(1)</script>`)
    const described = (attr(input, "aria-describedby") ?? "").split(" ").map((id) => clean(textOf(byId(page.parsed, id)!)))
    expect(described).toContain(known[error])
    const alert = byTag(page.parsed, "p").find((element) => attr(element, "role") === "alert")!
    expect(clean(textOf(alert))).toBe(known[error])
    expect(isInside(alert, page.form!)).toBe(true)
  })

  test("device confirmation posts xsrf and user_code with confirm=yes or abort=yes, and shows the code, the app and the device as text", () => {
    const response = deviceConfirmPage(ctx, confirmModel({ client: { name: HOSTILE }, device: { ip: "203.0.113.7", userAgent: HOSTILE } }))
    const page = read(response, language, known.confirm)
    const { action, method, hidden, buttons } = fieldsOf(page)
    expect({ action, method, hidden }).toEqual({ action: "/auth/oidc/device", method: "post", hidden: ["xsrf=xsrf-2", "user_code=BCDF-GHJK"] })
    expect(buttons.map(({ type, name, value }) => ({ type, name, value }))).toEqual([
      { type: "submit", name: "confirm", value: "yes" },
      { type: "submit", name: "abort", value: "yes" },
    ])
    expect(clean(textOf(byId(page.parsed, "oidc-device-confirm-code")!))).toBe("BCDF-GHJK")
    expect(page.text).toContain("203.0.113.7")
    expect(page.text.split(HOSTILE)).toHaveLength(3)
    expect(String(response.body)).not.toContain("<img src=x")
    const plain = read(deviceConfirmPage(ctx, confirmModel({ device: {} })), language, known.confirm)
    expect(plain.text).not.toContain("203.0.113.7")
    expect(plain.text).toContain("TV App")
  })

  test("device done: connected, with or without the app's name, or refused", () => {
    const done = read(deviceDonePage(ctx, { client: { name: HOSTILE }, aborted: false }), language, known.done)
    expect(clean(textOf(byTag(done.parsed, "h1")[0]!))).toBe(known.done)
    expect(done.text).toContain(HOSTILE)
    const unnamed = read(deviceDonePage(ctx, { client: null, aborted: false }), language, known.done)
    expect(unnamed.text).not.toContain(HOSTILE)
    const aborted = read(deviceDonePage(ctx, { client: { name: "TV App" }, aborted: true }), language, known.aborted)
    expect(clean(textOf(byTag(aborted.parsed, "h1")[0]!))).toBe(known.aborted)
    expect(aborted.text).not.toContain(known.done)
    expect(done.form ?? unnamed.form ?? aborted.form).toBeUndefined()
  })

  test("logout posts xsrf with logout=yes to sign out, or without it to stay signed in", () => {
    const page = read(logoutPage(ctx, { action: "/auth/oidc/session/end/confirm", xsrf: "xsrf-3", client: { name: HOSTILE } }), language, known.logout)
    const { action, method, hidden, buttons } = fieldsOf(page)
    expect({ action, method, hidden }).toEqual({ action: "/auth/oidc/session/end/confirm", method: "post", hidden: ["xsrf=xsrf-3"] })
    expect(buttons).toEqual([
      { type: "submit", name: "logout", value: "yes", text: known.signOut },
      { type: "submit", name: undefined, value: undefined, text: known.stay },
    ])
    expect(page.text).toContain(HOSTILE)
    const unnamed = read(logoutPage(ctx, { action: "/auth/oidc/session/end/confirm", xsrf: "xsrf-3", client: null }), language, known.logout)
    expect(byId(unnamed.parsed, "oidc-logout-client")).toBeUndefined()
    expect(clean(textOf(byId(unnamed.parsed, "oidc-logout-question")!))).not.toBe(clean(textOf(byId(page.parsed, "oidc-logout-question")!)))
    expect(fieldsOf(unnamed).buttons.map((button) => button.text)).toEqual([known.signOut, known.stay])
  })

  test("signed out: the app's name when known, and the way home", () => {
    const page = read(loggedOutPage(ctx, { client: { name: "Photo Printer" } }), language, known.loggedOut)
    expect(page.text).toContain("Photo Printer")
    expect(byTag(page.parsed, "a").map((link) => attr(link, "href"))).toEqual([ORIGIN])
    const unnamed = read(loggedOutPage(ctx, { client: null }), language, known.loggedOut)
    expect(unnamed.text).not.toContain("Photo Printer")
  })

  test("an OAuth error shows its code and description as text, with its status and the way home", () => {
    const response = providerErrorPage(ctx, { error: "invalid_redirect_uri", description: `redirect_uri did not match any of the client's registered redirect_uris ${HOSTILE}` }, 400)
    const page = read(response, language, known.error, 400)
    expect(byTag(page.parsed, "code").map((code) => textOf(code))).toEqual(["invalid_redirect_uri"])
    expect(clean(textOf(byId(page.parsed, "oidc-error-description")!))).toBe(`redirect_uri did not match any of the client's registered redirect_uris ${HOSTILE}`)
    expect(String(response.body)).not.toContain("<img src=x")
    expect(byTag(page.parsed, "a").map((link) => attr(link, "href"))).toEqual([ORIGIN])
    const bare = read(providerErrorPage(ctx, { error: "invalid_client" }, 404), language, known.error, 404)
    expect(byId(bare.parsed, "oidc-error-description")).toBeUndefined()
    expect(byTag(bare.parsed, "code").map((code) => textOf(code))).toEqual(["invalid_client"])
  })
})
