/**
 * The EJS views rendered through lib/pages/render.ts and parsed with parse5, as a browser would:
 * every model string is escaped (hostile values stay text or attribute values, never markup), the
 * inline stylesheet is exactly the CSS whose hash the policy allows, every visible input of the
 * sign-in page has a label, every form carries the CSRF token and callback URL, and the error
 * page never shows the raw `error` value.
 */
import { createHash } from "node:crypto"
import { renderPage, type LayoutModel } from "../../../lib/pages/render.js"
import { signinModel, type SigninModel } from "../../../lib/pages/signin.js"
import { errorModel } from "../../../lib/pages/error.js"
import { DEFAULT_ERROR_PAGE, ERROR_PAGES, SIGNIN_ERRORS } from "../../../lib/core/error-messages.js"
import { pageCsp, themeStyle } from "../../../lib/pages/theme.js"
import Credentials from "../../../lib/providers/credentials.js"
import type { Provider } from "../../../lib/providers/types.js"
import type { Theme } from "../../../lib/types.js"
import { allStrings, attr, byTag, expectNothingActive, parseHtml, shape, textOf, type Element } from "./html.js"

type Page = "signin" | "signout" | "error" | "verify-request"

const HOSTILE = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "<%= 7*7 %>",
  "'><svg onload=alert(1)>",
  "</style></title></textarea><script>alert(1)</script>",
  "<!--",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
]

/** A harmless marker used in place of each hostile value, to compare the two renderings. */
const SAFE = "SafeValue"

const BASE_STYLE = themeStyle({ brandColor: "#0f766e" })

function layout(value: string, style = BASE_STYLE): LayoutModel {
  return { title: value, css: style.css, colorScheme: value as LayoutModel["colorScheme"], logo: value }
}

/** Every string of every page's model set to `value`. */
function models(value: string): Record<Page, object> {
  // Step two (issue #26): the identifier shown and carried, typed values and errors beside fields, "Last used".
  const signin: SigninModel = {
    csrfToken: value,
    callbackUrl: value,
    error: value,
    step: "choose",
    identifier: { action: value, name: "login_hint", label: value, type: "text", value, error: value, changeUrl: value },
    credentials: [
      {
        id: value,
        name: value,
        action: value,
        button: value,
        identifier: { name: value, value },
        fields: [
          { id: value, name: value, label: value, type: value, placeholder: value, autocomplete: value, required: true, value, error: value },
          { id: `${value}2`, name: value, label: value, type: "password", required: false },
        ],
        links: [{ href: value, text: value }],
        lastUsed: true,
      },
    ],
    email: [{ id: value, name: value, action: value, button: value, value, error: value }],
    oauth: [{ id: value, name: value, action: value, logo: value, button: value, lastUsed: true }],
    webauthn: [{ id: value, name: value, action: value, optionsUrl: value, conditional: true, emailLabel: value, button: value, create: { viaEmail: { action: value, callbackUrl: value }, email: value } }],
  }
  return {
    signin,
    signout: { csrfToken: value, callbackUrl: value, action: value, cancelUrl: value },
    error: { status: 200, heading: value, message: value, link: { href: value, text: value } },
    "verify-request": {
      home: value,
      message: { before: value, after: value },
      address: value,
      resent: true,
      resend: { action: value, fields: { csrfToken: value, email: value, callbackUrl: value } },
      otherAddress: { href: value, text: value },
    },
  }
}

const PAGES: Page[] = ["signin", "signout", "error", "verify-request"]

const render = (page: Page, value: string) => parseHtml(renderPage(page, layout(value), models(value)[page]))

describe("renderPage escapes every model string", () => {
  const cases = PAGES.flatMap((page) => HOSTILE.map((value) => [page, value] as const))

  test.each(cases)("%s page with every string set to %j: no script, no probe image, no on* attribute", (page, value) => {
    expectNothingActive(render(page, value))
  })

  test.each(cases)("%s page with every string set to %j: same elements and attributes as a harmless value", (page, value) => {
    const hostile = render(page, value)
    const harmless = render(page, SAFE)
    expect(shape(hostile)).toEqual(shape(harmless))
    expect(hostile.errors).toEqual(harmless.errors)
  })

  test.each(cases)("%s page with every string set to %j: the value comes back exactly as text or attribute value", (page, value) => {
    const hostile = allStrings(render(page, value))
    const harmless = allStrings(render(page, SAFE))
    expect(hostile).toEqual(harmless.map((text) => text.split(SAFE).join(value)))
    expect(hostile.filter((text) => text.includes(value)).length).toBeGreaterThan(0)
  })

  test("the EJS probe is shown as typed, never evaluated", () => {
    for (const page of PAGES) {
      const html = renderPage(page, layout("<%= 7*7 %>"), models("<%= 7*7 %>")[page])
      expect(html).not.toMatch(/>\s*49\s*</)
      expect(html).not.toContain('"49"')
      expect(textOf(parseHtml(html).document)).toContain("<%= 7*7 %>")
    }
  })

  test("a harmless rendering has no parse errors", () => {
    for (const page of PAGES) expect(render(page, SAFE).errors).toEqual([])
  })

  test("the sign-in page's hostile error message is shown as text in the alert", () => {
    const parsed = render("signin", HOSTILE[0]!)
    const alert = parsed.elements.find((element) => attr(element, "role") === "alert")!
    expect(textOf(alert)).toBe(HOSTILE[0])
  })
})

describe("the stylesheet and its CSP hash", () => {
  const themes: Theme[] = [{}, { colorScheme: "dark" }, { colorScheme: "light", brandColor: "rgb(37 99 235)", buttonText: "black" }, { brandColor: "#0f766e", logo: "/logo.svg" }]

  test.each(PAGES.flatMap((page) => themes.map((theme) => [page, theme] as const)))("%s page, theme %p: the <style> content hashes to the policy's hash", (page, theme) => {
    const style = themeStyle(theme)
    const html = renderPage(page, { title: "Title", css: style.css, colorScheme: style.colorScheme, logo: style.logo }, models(SAFE)[page])
    const [element] = byTag(parseHtml(html), "style")
    const css = textOf(element!)
    expect(css).toBe(style.css)
    const hash = `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`
    expect(hash).toBe(style.hash)
    expect(pageCsp(style)).toContain(`style-src ${hash}`)
  })

  test("the color-scheme meta follows the theme", () => {
    const meta = (colorScheme: LayoutModel["colorScheme"]) => {
      const parsed = parseHtml(renderPage("verify-request", { title: "t", css: "", colorScheme }, { home: "/" }))
      return attr(byTag(parsed, "meta").find((m) => attr(m, "name") === "color-scheme")!, "content")
    }
    expect(meta("auto")).toBe("light dark")
    expect(meta("dark")).toBe("dark")
    expect(meta("light")).toBe("light")
  })

  test("the layout's logo appears only when the theme has one", () => {
    const logos = (logo?: string) => byTag(parseHtml(renderPage("verify-request", { title: "t", css: "", colorScheme: "auto", logo }, { home: "/" })), "img")
    expect(logos()).toHaveLength(0)
    const [img] = logos("https://cdn.example/logo.svg")
    expect(attr(img!, "src")).toBe("https://cdn.example/logo.svg")
    expect(attr(img!, "alt")).toBe("")
  })
})

describe("the sign-in page's forms", () => {
  const github: Provider = { id: "github", name: "GitHub", type: "oauth", style: { logo: "https://cdn.example/gh.svg" } }
  const passwordForm = Credentials({
    credentials: {
      username: { label: "Username" },
      password: { label: "Password", type: "password" },
      otp: { label: "One-time code", type: "text", autocomplete: "one-time-code", required: false, placeholder: "123456" },
    },
    authorize: () => null,
  })
  const pin = Credentials({ id: "pin", name: "PIN", credentials: { pin: { type: "password" } }, authorize: () => null })
  const CSRF = "a".repeat(64)
  const CALLBACK = "https://app.example/dashboard?tab=1&x=\"2\""
  const BASE = "https://app.example/auth"
  const page = (providers: Provider[], extra: { error?: string; loginHint?: string; lastUsed?: string } = {}) =>
    parseHtml(renderPage("signin", { title: "Sign in", css: BASE_STYLE.css, colorScheme: "auto" }, signinModel({ providers, baseUrl: BASE, csrfToken: CSRF, callbackUrl: CALLBACK, ...extra })))
  function isInside(element: Element, ancestor: Element): boolean {
    for (let node = element.parentNode; node; node = (node as Element).parentNode) if (node === ancestor) return true
    return false
  }
  const inputsOf = (parsed: ReturnType<typeof parseHtml>, form: Element) => parsed.elements.filter((element) => element.tagName === "input" && isInside(element, form))
  const shown = (parsed: ReturnType<typeof parseHtml>) => byTag(parsed, "input").filter((input) => attr(input, "type") !== "hidden" && attr(input, "hidden") === undefined)
  const buttonsOf = (parsed: ReturnType<typeof parseHtml>) => byTag(parsed, "button").map((button) => textOf(button).trim())

  // One method takes an identifier (the username form; the PIN form has none): one step, as before.
  const single = page([github, passwordForm, pin], { error: "CredentialsSignin", loginHint: "alice" })
  const forms = byTag(single, "form")

  test("a single step: one POST form per provider, to the provider's action", () => {
    expect(forms.map((form) => attr(form, "action"))).toEqual([`${BASE}/signin/github`, `${BASE}/callback/credentials`, `${BASE}/callback/pin`])
    for (const form of forms) expect(attr(form, "method")).toBe("post")
  })

  test("every form has exactly one csrfToken and one callbackUrl hidden input with the model's values", () => {
    for (const form of forms) {
      const hidden = inputsOf(single, form).filter((input) => attr(input, "type") === "hidden")
      expect(hidden.map((input) => attr(input, "name")).sort()).toEqual(["callbackUrl", "csrfToken"])
      expect(attr(hidden.find((input) => attr(input, "name") === "csrfToken")!, "value")).toBe(CSRF)
      expect(attr(hidden.find((input) => attr(input, "name") === "callbackUrl")!, "value")).toBe(CALLBACK)
    }
  })

  test("every visible input has a unique id and a <label for> naming it", () => {
    for (const parsed of [single, page([github, passwordForm, { id: "mail", name: "Email", type: "email" }]), page([passwordForm, { id: "passkey", name: "Passkey", type: "webauthn" }], { loginHint: "a@b.example" })]) {
      const visible = shown(parsed)
      const ids = visible.map((input) => attr(input, "id"))
      expect(new Set(ids).size).toBe(ids.length)
      const labels = byTag(parsed, "label")
      for (const input of visible) {
        const matching = labels.filter((label) => attr(label, "for") === attr(input, "id"))
        expect(matching).toHaveLength(1)
        expect(textOf(matching[0]!).trim().length).toBeGreaterThan(0)
      }
    }
  })

  test("labels, names, types, autocomplete, placeholder, required and the typed identifier follow the model", () => {
    const describeInput = (input: Element) => ({
      label: textOf(byTag(single, "label").find((label) => attr(label, "for") === attr(input, "id"))!),
      name: attr(input, "name"),
      type: attr(input, "type"),
      autocomplete: attr(input, "autocomplete"),
      placeholder: attr(input, "placeholder"),
      required: attr(input, "required") !== undefined,
      value: attr(input, "value"),
    })
    expect(shown(single).map(describeInput)).toEqual([
      { label: "Username", name: "username", type: "text", autocomplete: "username", placeholder: undefined, required: true, value: "alice" },
      { label: "Password", name: "password", type: "password", autocomplete: "current-password", placeholder: undefined, required: true, value: undefined },
      { label: "One-time code", name: "otp", type: "text", autocomplete: "one-time-code", placeholder: "123456", required: false, value: undefined },
      { label: "Pin", name: "pin", type: "password", autocomplete: "current-password", placeholder: undefined, required: true, value: undefined },
    ])
  })

  test("issue #26: wrong credentials are told beside the password field (aria-describedby, aria-invalid), as an alert", () => {
    const password = shown(single).find((input) => attr(input, "name") === "password")!
    expect(attr(password, "aria-invalid")).toBe("true")
    const described = single.elements.find((element) => attr(element, "id") === attr(password, "aria-describedby"))!
    expect(textOf(described)).toBe(SIGNIN_ERRORS.CredentialsSignin)
    expect(attr(described, "role")).toBe("alert")
    expect(single.elements.filter((element) => attr(element, "role") === "alert")).toHaveLength(1)
    expect(attr(password, "autofocus")).toBeDefined()
  })

  test("each submit button: the OAuth one names its provider, credentials forms theirs (a built-in name translated); the OAuth logo is decorative", () => {
    expect(buttonsOf(single)).toEqual(["Sign in with GitHub", "Sign in with password", "Sign in with PIN"])
    expect(buttonsOf(page([github, passwordForm]))).toEqual(["Sign in with GitHub", "Sign in"])
    const two = page([github, passwordForm, pin, Credentials({ id: "more", name: "Staff login", credentials: { username: {}, password: { type: "password" } }, authorize: () => null })], { loginHint: "x@y.example" })
    expect(buttonsOf(two)).toContain("Sign in with Staff login")
    const logo = byTag(single, "img")
    expect(logo.map((img) => [attr(img, "src"), attr(img, "alt")])).toEqual([["https://cdn.example/gh.svg", ""]])
  })

  const all: Provider[] = [github, { id: "passkey", name: "Passkey", type: "webauthn" }, { id: "mail", name: "Email", type: "email" }, passwordForm, pin]

  test("issue #26, step one: the OAuth button, one identifier field (a GET form back to the page), forms without an identifier, the passkey", () => {
    const first = page(all)
    const [oauth, identify, pinForm, passkey] = byTag(first, "form")
    expect(byTag(first, "form")).toHaveLength(4)
    expect(attr(oauth!, "action")).toBe(`${BASE}/signin/github`)
    expect([attr(identify!, "method"), attr(identify!, "action")]).toEqual(["get", `${BASE}/signin`])
    expect(inputsOf(first, identify!).map((input) => [attr(input, "name"), attr(input, "type"), attr(input, "autocomplete") ?? null])).toEqual([
      ["callbackUrl", "hidden", null],
      ["login_hint", "text", "username webauthn"],
    ])
    expect(attr(pinForm!, "action")).toBe(`${BASE}/callback/pin`)
    expect(attr(passkey!, "data-action")).toBe("authenticate")
    expect(byTag(first, "label").map(textOf)).toEqual(["Email or username", "Pin"])
    expect(buttonsOf(first)).toEqual(["Sign in with GitHub", "Continue", "Sign in with PIN", "Sign in with a passkey"])
  })

  test("issue #26, step two for an address: what it can use, the identifier carried along (never asked again), creating a passkey as a button", () => {
    const second = page(all, { loginHint: "ada@example.com", lastUsed: "mail" })
    const forms = byTag(second, "form")
    expect(forms.map((form) => attr(form, "action"))).toEqual([`${BASE}/signin/mail`, `${BASE}/callback/passkey`, `${BASE}/callback/credentials`, `${BASE}/signin/mail`])
    // The last used method comes first, marked.
    expect(buttonsOf(second)).toEqual(["Email me a link or code Last used", "Sign in with a passkey", "Sign in", "Email me a link to create a passkey"])
    const carried = (form: Element, name: string) => attr(inputsOf(second, form).find((input) => attr(input, "name") === name)!, "value")
    expect(carried(forms[0]!, "email")).toBe("ada@example.com")
    expect(carried(forms[2]!, "username")).toBe("ada@example.com")
    expect(carried(forms[3]!, "email")).toBe("ada@example.com")
    expect(shown(second).map((input) => attr(input, "name"))).toEqual(["password", "otp"])
    expect(textOf(second.document)).toContain("Use another account")
  })

  test("issue #26, step two for a username: no magic link; the password form and the passkey", () => {
    const second = page(all, { loginHint: "alice" })
    expect(byTag(second, "form").map((form) => attr(form, "action"))).toEqual([`${BASE}/callback/passkey`, `${BASE}/callback/credentials`])
  })

  test("no error: no alert; no provider: a sentence instead of forms", () => {
    const empty = parseHtml(renderPage("signin", layout("Sign in"), signinModel({ providers: [], baseUrl: "https://app.example/auth", csrfToken: CSRF, callbackUrl: CALLBACK })))
    expect(empty.elements.filter((element) => attr(element, "role") === "alert")).toHaveLength(0)
    expect(byTag(empty, "form")).toHaveLength(0)
    expect(textOf(empty.document)).toContain("No sign-in method is configured.")
  })

  test("a credentials field named toString renders no inherited function source as its autocomplete", () => {
    const provider = Credentials({ credentials: { toString: { label: "Code" } }, authorize: () => null })
    const html = renderPage("signin", { title: "Sign in", css: BASE_STYLE.css, colorScheme: "auto" }, signinModel({ providers: [provider], baseUrl: "https://app.example/auth", csrfToken: CSRF, callbackUrl: CALLBACK }))
    const input = byTag(parseHtml(html), "input").find((element) => attr(element, "name") === "toString")!
    expect(attr(input, "autocomplete")).toBeUndefined()
    expect(html.includes("native code")).toBe(false)
  })

  test("the sign-out page's form posts to its action with the token and callback URL", () => {
    const signout = parseHtml(renderPage("signout", layout("Sign out"), { csrfToken: CSRF, callbackUrl: CALLBACK, action: "https://app.example/auth/signout" }))
    const [form] = byTag(signout, "form")
    expect(attr(form!, "action")).toBe("https://app.example/auth/signout")
    expect(attr(form!, "method")).toBe("post")
    const hidden = Object.fromEntries(byTag(signout, "input").map((input) => [attr(input, "name"), attr(input, "value")]))
    expect(hidden).toEqual({ csrfToken: CSRF, callbackUrl: CALLBACK })
    expect(byTag(signout, "button").map(textOf)).toEqual(["Sign out"])
  })
})

describe("the error page never shows the raw error value", () => {
  const links = { signIn: "https://app.example/auth/signin", home: "https://app.example" }
  const renderError = (value: string | undefined) => {
    const model = errorModel(value, links)
    return renderPage("error", { title: model.heading, css: BASE_STYLE.css, colorScheme: "auto" }, model)
  }

  test.each([
    ...HOSTILE,
    "RawProbe9c2e",
    "AccessDenied<b>x</b>",
    "Configuration%3Cscript%3E",
    "constructor",
    "__proto__",
    "toString",
  ])("error=%j: only the default page's text", (value) => {
    const html = renderError(value)
    expect(html).not.toContain(value)
    const escaped = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&#34;").replace(/'/g, "&#39;")
    expect(html).not.toContain(escaped)
    const parsed = parseHtml(html)
    expect(allStrings(parsed).some((text) => text.includes(value))).toBe(false)
    expect(textOf(byTag(parsed, "h1")[0]!)).toBe(DEFAULT_ERROR_PAGE.heading)
    expect(textOf(byTag(parsed, "title")[0]!)).toBe(DEFAULT_ERROR_PAGE.heading)
    expectNothingActive(parsed)
  })

  test.each(["Configuration", "AccessDenied", "Verification"])("error=%s: its heading, message and link", (value) => {
    const parsed = parseHtml(renderError(value))
    const entry = ERROR_PAGES[value]!
    expect(textOf(byTag(parsed, "h1")[0]!)).toBe(entry.heading)
    expect(byTag(parsed, "p").map(textOf)).toContain(entry.message)
    const [link] = byTag(parsed, "a")
    expect(attr(link!, "href")).toBe(value === "Configuration" ? links.home : links.signIn)
  })
})
