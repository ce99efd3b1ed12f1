/**
 * The challenge a built-in page's form carries (issue #33): the widget's view model, drawn by
 * views/partials/bot-challenge.ejs, and the sources the page's CSP must allow for it. The pages
 * name no capability: they call the resolved `formChallenge` (declared here, made once per
 * configuration by `formChallengeSource`) for each guarded form and get nothing back when the
 * form needs no challenge, so a page without one keeps its policy as it was.
 *
 * - ALTCHA: the `<altcha-widget>` element (altcha 3: `challenge`, `name`, `language`, `auto`,
 *   `configuration`), its script and stylesheet from this router (`bot-widget`, `bot-widget?css`:
 *   the pages allow no inline style, which the build would inject), its challenge from
 *   `bot-challenge`. Its words are this catalog's, in the page's language (`data-strings`, which
 *   `ALTCHA_STRINGS_SCRIPT` hands to the widget); it solves in `blob:` workers and fetches the
 *   challenge from this origin.
 * - Turnstile, hCaptcha: the vendor's element and script; the vendor's origins in the policy.
 * - reCAPTCHA v3: no element; a hidden `g-recaptcha-response` field that `RECAPTCHA_SCRIPT`
 *   (served by `bot-widget`, as the pages allow no inline script) fills on submit.
 *
 * Sign-in asks only after repeated failures (check.ts), so its forms carry the widget once the
 * page shows a failed attempt (`CredentialsSignin`, a refused or unavailable check, too many
 * attempts) or when every sign-in is asked (`afterFailures: 0`). The page does not read the
 * store to learn whether this address was marked: a marked client on a fresh page is refused
 * once with `BotChallengeFailed`, and the page that says so carries the widget. Answering early
 * costs nothing: the server ignores an answer it did not ask for.
 */
import type { Messages } from "../i18n/en.js"
import type { CspSources } from "../pages/theme.js"
import type { BotAction, ResolvedBotProtection } from "./settings.js"

declare module "../core/config/resolved.js" {
  interface CapabilityConfig {
    /**
     * The challenge a built-in page's form carries (bot protection, issue #33): the sign-in page's
     * email and credentials forms, the sign-up and forgot-password pages. Undefined when off.
     */
    readonly formChallenge?: FormChallengeSource
  }
}

export interface FormChallengeInput {
  /** The door the form opens. */
  door: BotAction
  /** The router's URL (`bot-widget`, `bot-challenge` are under it). */
  baseUrl: string
  /** The page's language and its texts. */
  tag: string
  messages: Messages
  /** The error the page shows (`?error=`): a failed sign-in brings the widget to the sign-in forms. */
  error?: string
}

export interface BotWidget {
  kind: ResolvedBotProtection["provider"]
  /** The form field the widget fills (the one check.ts reads). */
  field: string
  /** The scripts to load (a page with several widgets loads them once: the others' lists are empty). */
  scripts: readonly WidgetScript[]
  /** ALTCHA: where the widget fetches its challenge. */
  challengeUrl?: string
  /** ALTCHA: its stylesheet, linked with the scripts (once a page). */
  stylesheet?: string
  /** A vendor's public site key. */
  siteKey?: string
  /** The action the vendor records (reCAPTCHA, Turnstile). */
  action: BotAction
  language: string
  /** ALTCHA: its words in the page's language, as JSON (the element's `data-strings`). */
  strings?: string
  /** Without JavaScript: what is wrong, and the app's other way (`noScriptUrl`) or whom to ask. */
  noScript: { message: string; link?: { href: string; text: string }; contact?: string }
}

/** A script the widget needs: `module` for ALTCHA's build (an ES module, `bot-widget`), else a classic one. */
export interface WidgetScript {
  src: string
  module?: boolean
}

export interface FormChallenge {
  model: BotWidget
  csp: CspSources
}

export type FormChallengeSource = (input: FormChallengeInput) => FormChallenge | undefined

/** The field each widget fills. */
const FIELDS = { altcha: "altcha", turnstile: "cf-turnstile-response", hcaptcha: "h-captcha-response", recaptcha: "g-recaptcha-response" } as const

const TURNSTILE = "https://challenges.cloudflare.com"
const HCAPTCHA = ["https://hcaptcha.com", "https://*.hcaptcha.com"]

/** What each widget loads, from where (the vendors' documented policies). */
const POLICIES: Readonly<Record<BotWidget["kind"], CspSources>> = Object.freeze({
  // The router's script and stylesheet; the challenge fetched from the router; the proof of work in workers made from blobs.
  altcha: { script: ["'self'"], style: ["'self'"], connect: ["'self'"], worker: ["'self'", "blob:"] },
  turnstile: { script: [TURNSTILE], frame: [TURNSTILE] },
  hcaptcha: { script: HCAPTCHA, frame: HCAPTCHA, style: HCAPTCHA, connect: HCAPTCHA },
  // Google's script and frame, and the router's own script that puts the token in the form.
  recaptcha: {
    script: ["'self'", "https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
    frame: ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
    connect: ["https://www.google.com/recaptcha/"],
  },
})

/** A failed attempt on the sign-in page: its forms carry the widget from then on. */
const AFTER_FAILURE = new Set(["CredentialsSignin", "BotChallengeFailed", "BotCheckUnavailable", "RateLimited"])

function guarded(settings: ResolvedBotProtection, input: FormChallengeInput): boolean {
  if (input.door !== "signIn") return settings.actions[input.door]
  const rule = settings.actions.signIn
  return rule !== null && (rule.afterFailures === 0 || (input.error !== undefined && AFTER_FAILURE.has(input.error)))
}

/** ALTCHA's words (its i18n keys) from the catalog: the checkbox's label and the states it announces. */
function altchaStrings(t: Messages): string {
  return JSON.stringify({
    label: t["bot.widget.label"],
    verifying: t["bot.widget.verifying"],
    verified: t["bot.widget.verified"],
    waitAlert: t["bot.widget.waiting"],
    verificationRequired: t["bot.widget.required"],
    error: t["bot.widget.failed"],
    expired: t["bot.widget.expired"],
  })
}

function scriptsOf(settings: ResolvedBotProtection, input: FormChallengeInput, language: string): WidgetScript[] {
  const siteKey = settings.vendor?.siteKey ?? ""
  switch (settings.provider) {
    case "altcha":
      return [{ src: `${input.baseUrl}/bot-widget`, module: true }]
    case "turnstile":
      return [{ src: `${TURNSTILE}/turnstile/v0/api.js` }]
    case "hcaptcha":
      return [{ src: `https://js.hcaptcha.com/1/api.js?${new URLSearchParams({ hl: language })}` }]
    case "recaptcha":
      return [{ src: `https://www.google.com/recaptcha/api.js?${new URLSearchParams({ render: siteKey, hl: language })}` }, { src: `${input.baseUrl}/bot-widget` }]
  }
}

function widgetOf(settings: ResolvedBotProtection, input: FormChallengeInput): BotWidget {
  const t = input.messages
  const language = input.tag.toLowerCase()
  const noScript: BotWidget["noScript"] = settings.noScriptUrl
    ? { message: t["bot.noscript.message"], link: { href: settings.noScriptUrl, text: t["bot.noscript.link"] } }
    : { message: t["bot.noscript.message"], contact: t["bot.noscript.contact"] }
  const widget: BotWidget = { kind: settings.provider, field: FIELDS[settings.provider], scripts: scriptsOf(settings, input, language), action: input.door, language, noScript }
  if (settings.provider === "altcha") return { ...widget, challengeUrl: `${input.baseUrl}/bot-challenge`, stylesheet: `${input.baseUrl}/bot-widget?css`, strings: altchaStrings(t) }
  return { ...widget, siteKey: settings.vendor?.siteKey }
}

/** The resolved `formChallenge` for these settings: made once with the configuration (capability.ts). */
export function formChallengeSource(settings: ResolvedBotProtection): FormChallengeSource {
  const csp = POLICIES[settings.provider]
  return (input) => (guarded(settings, input) ? { model: widgetOf(settings, input), csp } : undefined)
}

/**
 * Browser code `bot-widget` serves after ALTCHA's build: hands each widget's `data-strings` (the
 * page's words, in its language) to ALTCHA's registry, which the widget reads for its `language`.
 */
export const ALTCHA_STRINGS_SCRIPT = `;(function () {
  var registry = globalThis.$altcha
  if (!registry || !registry.i18n) return
  document.querySelectorAll("altcha-widget[data-strings]").forEach(function (widget) {
    try {
      var language = widget.getAttribute("language") || "en"
      var base = registry.i18n.get(language) || registry.i18n.get("en") || {}
      registry.i18n.set(language, Object.assign({}, base, JSON.parse(widget.getAttribute("data-strings"))))
    } catch (error) {
      // The widget keeps its English words.
    }
  })
})()
`

/**
 * Browser code `bot-widget` serves with reCAPTCHA v3 (it has no element): on submit, asks Google
 * for a token for the form's action, puts it in the hidden field, and submits again. Without
 * Google's script the form goes as it is, and the server says what went wrong.
 */
export const RECAPTCHA_SCRIPT = `;(function () {
  document.querySelectorAll("input[data-recaptcha-sitekey]").forEach(function (field) {
    var form = field.form
    if (!form) return
    form.addEventListener("submit", function (event) {
      if (field.value || typeof grecaptcha === "undefined") return
      event.preventDefault()
      grecaptcha.ready(function () {
        grecaptcha.execute(field.getAttribute("data-recaptcha-sitekey"), { action: field.getAttribute("data-recaptcha-action") }).then(function (token) {
          field.value = token
          if (form.requestSubmit) form.requestSubmit()
          else form.submit()
        })
      })
    })
  })
})()
`
