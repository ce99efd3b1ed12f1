/**
 * Bot protection on the built-in pages (issue #33): the guarded forms (sign-up, forgot-password,
 * the sign-in page's email form, and its password form once a sign-in failed) carry the widget
 * (ALTCHA's element, or a vendor's), its script, a policy that lets it run, and an honest note
 * for a browser without JavaScript; pages without a guarded form keep their policy as it was.
 */
import { describe, expect, test } from "@jest/globals"
import GitHub from "../../lib/providers/github.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Password from "../../lib/providers/password.js"
import type { AuthConfig } from "../../lib/types.js"
import { csrfToken, startSite, type Agent, type Site } from "../email/support.js"
import { formToken } from "../password/support.js"

const ALICE = "alice@example.com"
const CONTACT = "contact this site&#39;s support team"
const NO_JS = "This form uses JavaScript to check that you are not a robot"

/** The Password provider and the magic link, both mailing to the sink. */
async function startBotSite(botProtection: AuthConfig["botProtection"], config: Partial<AuthConfig> = {}): Promise<Site> {
  return startSite({
    providers: (smtp) => [Password({ email: Nodemailer({ server: smtp.url, from: "auth@example.test" }) }), Nodemailer({ server: smtp.url, from: "auth@example.test" })],
    config: { botProtection, ...config },
  })
}

const count = (html: string, text: string) => html.split(text).length - 1

/** The `<form>` whose action ends with `path`, as served. */
function formFor(html: string, path: string): string {
  const form = [...html.matchAll(/<form[^>]*>[\s\S]*?<\/form>/g)].map((match) => match[0]).find((each) => new RegExp(`action="[^"]*${path}"`).test(each))
  if (!form) throw new Error(`no form posting to ${path}`)
  return form
}

const csp = (response: { headers: Record<string, unknown> }) => String(response.headers["content-security-policy"])

/** The page as a browser would show it after a failed password sign-in: the redirect followed. */
async function afterWrongPassword(agent: Agent): Promise<{ text: string; headers: Record<string, unknown> }> {
  const csrfToken = await formToken(agent, `/auth/signin?login_hint=${encodeURIComponent(ALICE)}`)
  const refused = await agent.post("/auth/callback/password").type("form").redirects(0).send({ csrfToken, email: ALICE, password: "not the password at all" })
  expect(refused.status).toBe(302)
  const location = new URL(String(refused.headers.location))
  expect(location.searchParams.get("error")).toBe("CredentialsSignin")
  return agent.get(`${location.pathname}${location.search}`).expect(200)
}

describe("ALTCHA (botProtection: true)", () => {
  test("the sign-up and forgot-password forms carry the widget, its script, a policy that lets it run, and the note for no JavaScript", async () => {
    const site = await startBotSite(true)
    for (const [path, action] of [["/auth/signup", "/auth/signup"], ["/auth/forgot-password", "/auth/forgot-password"]] as const) {
      const page = await site.agent().get(path).expect(200)
      const form = formFor(page.text, action)
      expect(form).toContain(`<altcha-widget challenge="${site.url}/auth/bot-challenge" name="altcha" language="en"`)
      expect(form).toContain(`<script src="${site.url}/auth/bot-widget" type="module"></script>`)
      // Without JavaScript: what is wrong and whom to ask (no other way configured).
      expect(form).toMatch(new RegExp(`<noscript><p class="notice">${NO_JS}[^<]*${CONTACT}`))
      // The widget sits before the form's button, so it is answered before sending.
      expect(form.indexOf("<altcha-widget")).toBeLessThan(form.indexOf('<button type="submit"'))
      const policy = csp(page)
      expect(policy).toContain("script-src 'self'")
      expect(policy).toContain("connect-src 'self'")
      expect(policy).toContain("worker-src 'self' blob:")
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/)
    }
  })

  test("the sign-in page's email form carries the widget; the password form not before a failed sign-in", async () => {
    const site = await startBotSite(true)
    const page = await site.agent().get(`/auth/signin?login_hint=${encodeURIComponent(ALICE)}`).expect(200)
    expect(formFor(page.text, "/auth/signin/nodemailer")).toContain(`<altcha-widget challenge="${site.url}/auth/bot-challenge" name="altcha"`)
    expect(formFor(page.text, "/auth/callback/password")).not.toContain("altcha-widget")
    expect(count(page.text, "<altcha-widget")).toBe(1)
    expect(count(page.text, `<script type="module" src="${site.url}/auth/bot-widget"`) + count(page.text, `<script src="${site.url}/auth/bot-widget"`)).toBe(1)
    expect(count(page.text, 'id="altcha-css"')).toBe(1)
    expect(csp(page)).toContain("script-src 'self'")
    expect(csp(page)).toMatch(/style-src [^;]*'self'/)
  })

  test("after a wrong password the password form carries the widget too, the script loaded once", async () => {
    const site = await startBotSite(true)
    const page = await afterWrongPassword(site.agent())
    expect(formFor(page.text, "/auth/callback/password")).toContain('name="altcha"')
    expect(formFor(page.text, "/auth/signin/nodemailer")).toContain('name="altcha"')
    expect(count(page.text, "<altcha-widget")).toBe(2)
    expect(count(page.text, `<script src="${site.url}/auth/bot-widget"`)).toBe(1)
  })

  test("with afterFailures 0 every sign-in is asked: the password form carries the widget from the start", async () => {
    const site = await startBotSite({ actions: { signIn: { afterFailures: 0 } } })
    const page = await site.agent().get(`/auth/signin?login_hint=${encodeURIComponent(ALICE)}`).expect(200)
    expect(formFor(page.text, "/auth/callback/password")).toContain('name="altcha"')
  })

  test("a door turned off has no widget", async () => {
    const site = await startBotSite({ actions: { signUp: false, signIn: false } })
    const signup = await site.agent().get("/auth/signup").expect(200)
    expect(signup.text).not.toContain("altcha-widget")
    const after = await afterWrongPassword(site.agent())
    expect(formFor(after.text, "/auth/callback/password")).not.toContain("altcha-widget")
    expect(formFor(after.text, "/auth/signin/nodemailer")).toContain("altcha-widget")
  })

  test("with noScriptUrl, the note links to the app's other way", async () => {
    const site = await startBotSite({ noScriptUrl: "https://example.com/contact?topic=signup" })
    const page = await site.agent().get("/auth/signup").expect(200)
    expect(page.text).toContain('<a href="https://example.com/contact?topic=signup">Can&#39;t turn JavaScript on? Continue another way.</a>')
    expect(page.text).not.toContain(CONTACT)
  })

  test("without JavaScript the form still goes, and the page says in place what went wrong, the widget still there", async () => {
    const site = await startBotSite(true)
    const agent = site.agent()
    const token = await formToken(agent, "/auth/signup")
    const refused = await agent.post("/auth/signup").type("form").redirects(0).send({ csrfToken: token, email: ALICE, password: "correct horse battery staple" })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain("Please confirm you are not a robot, then try again.")
    expect(refused.text).toContain("<altcha-widget")
    expect(await site.memory.getUserByEmail(ALICE)).toBeNull()

    const email = await agent.post("/auth/signin/nodemailer").type("form").redirects(0).send({ csrfToken: await csrfToken(agent), email: ALICE })
    expect(email.status).toBe(302)
    const location = new URL(String(email.headers.location))
    expect(location.searchParams.get("error")).toBe("BotChallengeFailed")
    const page = await agent.get(`${location.pathname}${location.search}`).expect(200)
    expect(page.text).toContain("Please confirm you are not a robot, then try again.")
    expect(site.smtp.messages).toHaveLength(0)
  })

  test("in German (Accept-Language: de): the widget's words, its language and the note", async () => {
    const site = await startBotSite(true)
    const page = await site.agent().get("/auth/signup").set("Accept-Language", "de").expect(200)
    expect(page.text).toContain('language="de"')
    // The widget's label and states, as JSON in its data-strings attribute (quotes escaped).
    expect(page.text).toContain("&#34;label&#34;:&#34;Ich bin kein Roboter&#34;")
    expect(page.text).toContain("Dieses Formular prüft mit JavaScript, dass Sie kein Roboter sind")
    expect(page.text).toContain("wenden Sie sich an den Support dieser Website")
  })

  test("a refused check in German: the page says so in German", async () => {
    const site = await startBotSite(true)
    const agent = site.agent()
    const csrfToken = await formToken(agent, "/auth/forgot-password")
    const refused = await agent.post("/auth/forgot-password").set("Accept-Language", "de").type("form").redirects(0).send({ csrfToken, email: ALICE })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain("Bitte bestätigen Sie, dass Sie kein Roboter sind")
  })
})

describe("pages without a guarded form", () => {
  test("the error page and an OAuth-only sign-in page have no widget, and their policy is the one without bot protection", async () => {
    const providers = () => [GitHub({ clientId: "id", clientSecret: "secret" })]
    const guarded = await startSite({ providers, config: { botProtection: true } })
    const plain = await startSite({ providers })
    for (const path of ["/auth/signin", "/auth/error?error=Configuration"]) {
      const [withBots, without] = await Promise.all([guarded.agent().get(path), plain.agent().get(path)])
      expect(withBots.text).not.toMatch(/altcha|bot-widget|<noscript>/)
      expect(csp(withBots)).toBe(csp(without))
      expect(csp(withBots)).not.toContain("script-src")
    }
  })

  test("with bot protection off, the password pages have no widget and no script", async () => {
    const site = await startBotSite(undefined)
    for (const path of ["/auth/signup", "/auth/forgot-password", `/auth/signin?login_hint=${encodeURIComponent(ALICE)}`]) {
      const page = await site.agent().get(path).expect(200)
      expect(page.text).not.toMatch(/altcha|bot-widget|<noscript>/)
      expect(csp(page)).not.toContain("script-src")
    }
  })
})

describe("vendors", () => {
  const keys = { secret: "server-secret", siteKey: "site-key-123" }
  const VENDORS = [
    {
      name: "turnstile",
      element: '<div class="cf-turnstile" data-sitekey="site-key-123" data-action="signUp" data-language="en"></div>',
      script: "https://challenges.cloudflare.com/turnstile/v0/api.js",
      policy: ["script-src https://challenges.cloudflare.com", "frame-src https://challenges.cloudflare.com"],
    },
    {
      name: "hcaptcha",
      element: '<div class="h-captcha" data-sitekey="site-key-123"></div>',
      script: "https://js.hcaptcha.com/1/api.js?hl=en",
      policy: ["script-src https://hcaptcha.com https://*.hcaptcha.com", "frame-src https://hcaptcha.com https://*.hcaptcha.com", "connect-src https://hcaptcha.com https://*.hcaptcha.com"],
    },
    {
      name: "recaptcha",
      element: '<input type="hidden" name="g-recaptcha-response" value="" data-recaptcha-sitekey="site-key-123" data-recaptcha-action="signUp">',
      script: "https://www.google.com/recaptcha/api.js?render=site-key-123&amp;hl=en",
      policy: ["script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/", "frame-src https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/"],
    },
  ] as const

  test.each(VENDORS)("$name: the sign-up form carries its element, site key and script, and the policy allows its origins", async ({ name, element, script, policy }) => {
    const site = await startBotSite({ provider: { [name]: keys } as NonNullable<Exclude<AuthConfig["botProtection"], boolean | undefined>>["provider"] })
    const page = await site.agent().get("/auth/signup").expect(200)
    const form = formFor(page.text, "/auth/signup")
    expect(form).toContain(element)
    expect(form).toContain(`<script src="${script}" defer></script>`)
    expect(form).not.toContain("altcha")
    expect(form).toContain(NO_JS)
    for (const directive of policy) expect(csp(page)).toContain(directive)
    // reCAPTCHA has no element: the router's own script fills the hidden field on submit.
    if (name === "recaptcha") expect(form).toContain(`<script src="${site.url}/auth/bot-widget" defer></script>`)
    else expect(form).not.toContain("/auth/bot-widget")
    // The sign-in page's email form too.
    const signin = await site.agent().get(`/auth/signin?login_hint=${encodeURIComponent(ALICE)}`).expect(200)
    expect(formFor(signin.text, "/auth/signin/nodemailer")).toContain("site-key-123")
  })
})
