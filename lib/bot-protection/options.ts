/**
 * The `botProtection` option (issue #33), checked and resolved once with the configuration. Off
 * unless given; `botProtection: true` (or `{}`) turns ALTCHA on for the default doors. A mistake
 * throws `InvalidOption` naming the option. The challenge's code is loaded with `import()` on
 * first use, so an app without the option never loads it.
 */
import { InvalidOption } from "../errors.js"
import type { BotAction, BotProtectionOptions, BotVerifier, OutagePolicy, RecaptchaOptions, ResolvedBotProtection, ResolvedVendor } from "./settings.js"
import { outboundLimits } from "../outbound/options.js"

export type { BotProtectionOptions, ResolvedBotProtection } from "./settings.js"

const ACTIONS: readonly BotAction[] = ["signUp", "emailSignIn", "forgotPassword", "signIn"]
const VENDORS = ["turnstile", "hcaptcha", "recaptcha"] as const

function httpsUrl(path: string, value: unknown): string | undefined {
  if (value === undefined) return undefined
  let url: URL | undefined
  try {
    url = typeof value === "string" ? new URL(value) : undefined
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) throw new InvalidOption(`${path} must be an http(s) URL (got ${JSON.stringify(value)})`)
  return url.href
}

function vendorOf(provider: unknown): { kind: (typeof VENDORS)[number]; options: ResolvedVendor } | "altcha" {
  if (provider === undefined || provider === "altcha") return "altcha"
  const entries = provider && typeof provider === "object" && !Array.isArray(provider) ? Object.entries(provider) : []
  const [kind, options] = entries[0] ?? []
  if (entries.length !== 1 || !VENDORS.includes(kind as (typeof VENDORS)[number]) || !options || typeof options !== "object") {
    throw new InvalidOption(`botProtection.provider must be "altcha", { turnstile }, { hcaptcha } or { recaptcha } (got ${JSON.stringify(provider)})`)
  }
  const given = options as RecaptchaOptions
  const path = `botProtection.provider.${kind}`
  if (typeof given.secret !== "string" || !given.secret) throw new InvalidOption(`${path}.secret must be the vendor's secret key`)
  if (typeof given.siteKey !== "string" || !given.siteKey) throw new InvalidOption(`${path}.siteKey must be the vendor's site key`)
  const threshold = given.threshold ?? 0.5
  if (kind === "recaptcha" && (typeof threshold !== "number" || threshold < 0 || threshold > 1)) throw new InvalidOption(`${path}.threshold must be a score from 0 to 1`)
  // A real answer is a few hundred bytes: 64 KiB unless the app says otherwise.
  const limits = outboundLimits({ maxResponseSize: 64 * 1024, ...(given.outbound ?? {}) }, `${path}.outbound`)
  return { kind: kind as (typeof VENDORS)[number], options: Object.freeze({ secret: given.secret, siteKey: given.siteKey, verifyUrl: httpsUrl(`${path}.verifyUrl`, given.verifyUrl), limits, ...(kind === "recaptcha" && { threshold }) }) }
}

function wholeNumber(path: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) throw new InvalidOption(`${path} must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`)
  return value
}

function actionsOf(value: unknown): ResolvedBotProtection["actions"] {
  if (value !== undefined && (!value || typeof value !== "object" || Array.isArray(value))) throw new InvalidOption("botProtection.actions must be an object such as { signUp: true, signIn: { afterFailures: 5 } }")
  const given = (value ?? {}) as NonNullable<BotProtectionOptions["actions"]>
  for (const name of Object.keys(given)) if (!ACTIONS.includes(name as BotAction)) throw new InvalidOption(`botProtection.actions.${name} is not a guarded door (${ACTIONS.join(", ")})`)
  const flag = (name: Exclude<BotAction, "signIn">) => {
    const set = given[name] ?? true
    if (typeof set !== "boolean") throw new InvalidOption(`botProtection.actions.${name} must be a boolean`)
    return set
  }
  let signIn: ResolvedBotProtection["actions"]["signIn"] = { afterFailures: 5, window: 15 * 60 }
  if (given.signIn === false) signIn = null
  else if (given.signIn !== undefined) {
    if (!given.signIn || typeof given.signIn !== "object") throw new InvalidOption("botProtection.actions.signIn must be false or { afterFailures, window }")
    signIn = { afterFailures: wholeNumber("botProtection.actions.signIn.afterFailures", given.signIn.afterFailures ?? 5, 0, 1000), window: wholeNumber("botProtection.actions.signIn.window", given.signIn.window ?? 15 * 60, 60, 7 * 24 * 3600) }
  }
  return Object.freeze({ signUp: flag("signUp"), emailSignIn: flag("emailSignIn"), forgotPassword: flag("forgotPassword"), signIn: signIn && Object.freeze(signIn) })
}

function outageOf(value: unknown): Record<BotAction, OutagePolicy> {
  const policy = (each: unknown, path: string): OutagePolicy => {
    if (each !== "open" && each !== "closed") throw new InvalidOption(`${path} must be "open" or "closed" (got ${JSON.stringify(each)})`)
    return each
  }
  if (value === undefined || typeof value === "string") {
    const all = policy(value ?? "closed", "botProtection.onOutage")
    return { signUp: all, emailSignIn: all, forgotPassword: all, signIn: all }
  }
  if (!value || typeof value !== "object") throw new InvalidOption("botProtection.onOutage must be \"open\", \"closed\" or one of them per action")
  const given = value as Partial<Record<BotAction, unknown>>
  const out = {} as Record<BotAction, OutagePolicy>
  for (const action of ACTIONS) out[action] = policy(given[action] ?? "closed", `botProtection.onOutage.${action}`)
  return out
}

export function resolveBotProtection(option: unknown): ResolvedBotProtection | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (!option || typeof option !== "object" || Array.isArray(option))) {
    throw new InvalidOption(`botProtection must be true or an object such as { provider: "altcha" } (got ${JSON.stringify(option)})`)
  }
  const given = (option === true ? {} : option) as BotProtectionOptions
  const vendor = vendorOf(given.provider)
  const altchaGiven = (given.altcha ?? {}) as NonNullable<BotProtectionOptions["altcha"]>
  const cost = wholeNumber("botProtection.altcha.cost", altchaGiven.cost ?? 5000, 1, 10_000_000)
  const altcha = Object.freeze({
    cost,
    maxCost: wholeNumber("botProtection.altcha.maxCost", altchaGiven.maxCost ?? cost * 16, cost, 100_000_000),
    expires: wholeNumber("botProtection.altcha.expires", altchaGiven.expires ?? 600, 30, 24 * 3600),
  })
  let verifier: Promise<BotVerifier> | undefined
  const resolved: ResolvedBotProtection = Object.freeze({
    provider: vendor === "altcha" ? "altcha" : vendor.kind,
    vendor: vendor === "altcha" ? undefined : vendor.options,
    actions: actionsOf(given.actions),
    altcha,
    onOutage: Object.freeze(outageOf(given.onOutage)),
    noScriptUrl: httpsUrl("botProtection.noScriptUrl", given.noScriptUrl),
    verifier: () => {
      verifier ??= (vendor === "altcha" ? import("./altcha/verifier.js").then((module) => module.altchaVerifier(resolved)) : import("./vendors/verifier.js").then((module) => module.vendorVerifier(resolved, resolved.vendor?.limits))).catch((error: unknown) => {
        verifier = undefined
        throw error
      })
      return verifier
    },
  })
  return resolved
}
