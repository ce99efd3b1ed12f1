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
  const signin: SigninModel = {
    csrfToken: value,
    callbackUrl: value,
    error: value,
    credentials: [
      {
        id: value,
        name: value,
        action: value,
        fields: [
          { id: value, name: value, label: value, type: value, placeholder: value, autocomplete: value, required: true },
          { id: `${value}2`, name: value, label: value, type: "password", required: false },
        ],
      },
    ],
    email: [{ id: value, name: value, action: value }],
    oauth: [{ id: value, name: value, action: value, logo: value }],
    webauthn: [{ id: value, name: value, action: value, optionsUrl: value, conditional: true, emailLabel: value, create: { viaEmail: { action: value, callbackUrl: value } } }],
  }
  return {
    signin,
    signout: { csrfToken: value, callbackUrl: value, action: value },
    error: { status: 200, heading: value, message: value, link: { href: value, text: value } },
    "verify-request": { home: value },
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
  const providers: Provider[] = [
    { id: "github", name: "GitHub", type: "oauth", style: { logo: "https://cdn.example/gh.svg" } },
    { id: "passkey", name: "Passkey", type: "webauthn" },
    { id: "mail", name: "Email", type: "email" },
    Credentials({
      credentials: {
        username: { label: "Username" },
        password: { label: "Password", type: "password" },
        otp: { label: "One-time code", type: "text", autocomplete: "one-time-code", required: false, placeholder: "123456" },
      },
      authorize: () => null,
    }),
    Credentials({ id: "pin", name: "PIN", credentials: { pin: { type: "password" } }, authorize: () => null }),
  ]
  const CSRF = "a".repeat(64)
  const CALLBACK = "https://app.example/dashboard?tab=1&x=\"2\""
  const model = signinModel({ providers, baseUrl: "https://app.example/auth", csrfToken: CSRF, callbackUrl: CALLBACK, error: "CredentialsSignin" })
  const parsed = parseHtml(renderPage("signin", { title: "Sign in", css: BASE_STYLE.css, colorScheme: "auto" }, model))
  const forms = byTag(parsed, "form")
  const inputsOf = (form: Element) => parsed.elements.filter((element) => element.tagName === "input" && isInside(element, form))

  function isInside(element: Element, ancestor: Element): boolean {
    for (let node = element.parentNode; node; node = (node as Element).parentNode) if (node === ancestor) return true
    return false
  }

  test("one POST form per provider, to the provider's action", () => {
    expect(forms.map((form) => attr(form, "action"))).toEqual([
      "https://app.example/auth/signin/github",
      "https://app.example/auth/callback/passkey",
      // Issue #12: creating a first passkey proves the address first, by a magic link.
      "https://app.example/auth/signin/mail",
      "https://app.example/auth/signin/mail",
      "https://app.example/auth/callback/credentials",
      "https://app.example/auth/callback/pin",
    ])
    for (const form of forms) expect(attr(form, "method")).toBe("post")
  })

  test("every form has exactly one csrfToken and one callbackUrl hidden input with the model's values", () => {
    expect(forms.length).toBe(6)
    // The "create a passkey" form comes back to the passkey set-up page, then to the callback URL.
    const setup = `https://app.example/auth/passkey-setup/passkey?${new URLSearchParams({ callbackUrl: CALLBACK })}`
    for (const form of forms) {
      const creates = forms.indexOf(form) === 2
      const hidden = inputsOf(form).filter((input) => attr(input, "type") === "hidden")
      // The passkey form also carries the ceremony's action and response, filled in by its script.
      const extra = attr(form, "data-gatehouse-webauthn") !== undefined ? ["action", "data"] : []
      expect(hidden.map((input) => attr(input, "name")).sort()).toEqual(["callbackUrl", "csrfToken", ...extra].sort())
      expect(attr(hidden.find((input) => attr(input, "name") === "csrfToken")!, "value")).toBe(CSRF)
      expect(attr(hidden.find((input) => attr(input, "name") === "callbackUrl")!, "value")).toBe(creates ? setup : CALLBACK)
    }
  })

  test("every visible input has a unique id and a <label for> naming it", () => {
    const visible = byTag(parsed, "input").filter((input) => attr(input, "type") !== "hidden")
    expect(visible.length).toBe(6)
    const ids = visible.map((input) => attr(input, "id"))
    expect(new Set(ids).size).toBe(ids.length)
    const labels = byTag(parsed, "label")
    for (const input of visible) {
      const id = attr(input, "id")!
      expect(id).toBeTruthy()
      const matching = labels.filter((label) => attr(label, "for") === id)
      expect(matching).toHaveLength(1)
      expect(textOf(matching[0]!).trim().length).toBeGreaterThan(0)
    }
  })

  test("labels, names, types, autocomplete, placeholder and required follow the model", () => {
    const describeInput = (input: Element) => ({
      label: textOf(byTag(parsed, "label").find((label) => attr(label, "for") === attr(input, "id"))!),
      name: attr(input, "name"),
      type: attr(input, "type"),
      autocomplete: attr(input, "autocomplete"),
      placeholder: attr(input, "placeholder"),
      required: attr(input, "required") !== undefined,
    })
    const visible = byTag(parsed, "input").filter((input) => attr(input, "type") !== "hidden")
    expect(visible.map(describeInput)).toEqual([
      { label: "Email (to create an account)", name: "email", type: "email", autocomplete: "email", placeholder: undefined, required: true },
      // The magic-link field also offers the site's passkeys (conditional UI).
      { label: "Email", name: "email", type: "email", autocomplete: "email webauthn", placeholder: "you@example.com", required: true },
      { label: "Username", name: "username", type: "text", autocomplete: "username", placeholder: undefined, required: true },
      { label: "Password", name: "password", type: "password", autocomplete: "current-password", placeholder: undefined, required: true },
      { label: "One-time code", name: "otp", type: "text", autocomplete: "one-time-code", placeholder: "123456", required: false },
      { label: "Pin", name: "pin", type: "password", autocomplete: "current-password", placeholder: undefined, required: true },
    ])
  })

  test("issue #12: the passkey sign-in form asks for no address; creating a passkey is its own labelled form", () => {
    const passkey = forms[1]!
    expect(attr(passkey, "data-action")).toBe("authenticate")
    expect(inputsOf(passkey).filter((input) => attr(input, "type") !== "hidden")).toEqual([])
    const create = forms[2]!
    const heading = parsed.elements.find((element) => element.tagName === "h2")
    expect(textOf(heading!)).toBe("New here? Create a passkey")
    expect(inputsOf(create).filter((input) => attr(input, "type") !== "hidden").map((input) => attr(input, "name"))).toEqual(["email"])
  })

  test("every form has one submit button naming its provider; the OAuth logo is decorative", () => {
    for (const form of forms) {
      const buttons = parsed.elements.filter((element) => element.tagName === "button" && isInside(element, form))
      expect(buttons).toHaveLength(1)
      expect(attr(buttons[0]!, "type")).toBe("submit")
      expect(textOf(buttons[0]!)).toMatch(forms.indexOf(form) === 2 ? /^Email me a link to create a passkey$/ : /^Sign in with \S/)
    }
    const logo = byTag(parsed, "img")
    expect(logo.map((img) => [attr(img, "src"), attr(img, "alt")])).toEqual([["https://cdn.example/gh.svg", ""]])
  })

  test("the error message is an alert; groups are separated by dividers", () => {
    const alert = parsed.elements.filter((element) => attr(element, "role") === "alert")
    expect(alert.map(textOf)).toEqual([SIGNIN_ERRORS.CredentialsSignin])
    expect(parsed.elements.filter((element) => attr(element, "role") === "separator")).toHaveLength(3)
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
