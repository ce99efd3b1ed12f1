/**
 * The types of the `botProtection` option (issue #33), as given and as resolved (options.ts). A
 * file of its own, with no code, so the modules the resolved option points to can name it
 * without an import cycle.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { OutboundLimits, OutboundOptions } from "../outbound/options.js"

/** The doors a challenge can guard. */
export type BotAction = "signUp" | "emailSignIn" | "forgotPassword" | "signIn"

/** What a vendor outage does to the action: let it through (`"open"`) or refuse it (`"closed"`). */
export type OutagePolicy = "open" | "closed"

export interface VendorOptions {
  /** The server-side secret. */
  secret: string
  /** The public site key the page's widget uses. */
  siteKey: string
  /** The verification endpoint (default: the vendor's documented one). */
  verifyUrl?: string
  /** The verification call's limits: `{ connectTimeout, timeout, maxResponseSize }` (defaults 5 s, 15 s, 64 KiB). */
  outbound?: OutboundOptions
}

/** A vendor's options as resolved: its verification call's limits checked and filled in. */
export interface ResolvedVendor extends Omit<RecaptchaOptions, "outbound"> {
  readonly limits: OutboundLimits
}

export interface RecaptchaOptions extends VendorOptions {
  /** reCAPTCHA v3: the lowest score accepted (default 0.5). */
  threshold?: number
}

export interface BotProtectionOptions {
  /**
   * Which challenge: `"altcha"` (default: a self-hosted proof of work, no third party), or one
   * vendor: `{ turnstile }`, `{ hcaptcha }`, `{ recaptcha }`.
   */
  provider?: "altcha" | { turnstile: VendorOptions } | { hcaptcha: VendorOptions } | { recaptcha: RecaptchaOptions }
  /**
   * The doors guarded (default: sign-up, email sign-in requests, forgot-password, and sign-in
   * after 5 failures for the identifier or the address). `signIn: { afterFailures: 0 }` asks on
   * every sign-in; `false` turns a door off.
   */
  actions?: { signUp?: boolean; emailSignIn?: boolean; forgotPassword?: boolean; signIn?: false | { afterFailures?: number; window?: number } }
  /** ALTCHA: the work asked for (default cost 5000, raised up to 16× while challenges are being refused) and how long a challenge lasts (seconds, default 600). */
  altcha?: { cost?: number; maxCost?: number; expires?: number }
  /** A vendor's outage (timeout, error, garbage): per action or for all (default "closed"). */
  onOutage?: OutagePolicy | Partial<Record<BotAction, OutagePolicy>>
  /**
   * Without JavaScript the challenge cannot run: the pages say so, and link here when given (a
   * contact form, an app-made path) instead of leaving the person stuck.
   */
  noScriptUrl?: string
}

/** One challenge's checking, made once per configuration (altcha/ or vendors/). */
export interface BotVerifier {
  readonly kind: "altcha" | "turnstile" | "hcaptcha" | "recaptcha"
  /** The form field the widget fills (`altcha`, `cf-turnstile-response`, ...). */
  readonly field: string
  /**
   * Checks one token for `action`: "ok", "refused" (wrong, expired, used, low score) or
   * "unavailable" (the vendor could not answer). Never throws for bad input.
   */
  verify(config: ResolvedConfig, token: string, input: { action: BotAction; ip?: string }): Promise<"ok" | "refused" | "unavailable">
}

export interface ResolvedBotProtection {
  readonly provider: "altcha" | "turnstile" | "hcaptcha" | "recaptcha"
  /** The vendor's options (undefined for ALTCHA). */
  readonly vendor?: Readonly<ResolvedVendor>
  readonly actions: Readonly<Record<Exclude<BotAction, "signIn">, boolean>> & { readonly signIn: { readonly afterFailures: number; readonly window: number } | null }
  readonly altcha: { readonly cost: number; readonly maxCost: number; readonly expires: number }
  readonly onOutage: Readonly<Record<BotAction, OutagePolicy>>
  readonly noScriptUrl?: string
  /** The verifier, loaded on first use (`import()`: the libraries cost nothing until then). */
  readonly verifier: () => Promise<BotVerifier>
}
