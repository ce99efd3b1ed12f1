/**
 * What differs between the three vendors' server-side checks (issue #33): where the check is
 * posted, which form field the page's widget fills, and what is sent besides the secret, the
 * answer and the client's address. All three take a form-encoded POST and answer JSON with a
 * boolean `success` and an `error-codes` list:
 *
 * - Turnstile: developers.cloudflare.com/turnstile/get-started/server-side-validation/
 *   (`secret`, `response`, `remoteip`; also `idempotency_key`, which only matters to a caller
 *   that retries, and Gatehouse asks once);
 * - hCaptcha: docs.hcaptcha.com, "Verify the User Response Server Side" (`secret`, `response`,
 *   `remoteip`, `sitekey`: with the site key sent, a token made for another site is refused);
 * - reCAPTCHA v3: developers.google.com/recaptcha/docs/verify (`secret`, `response`, `remoteip`;
 *   the answer carries the `score` compared with `threshold`).
 */
export type VendorKind = "turnstile" | "hcaptcha" | "recaptcha"

export interface VendorWire {
  /** The vendor's name in logs. */
  readonly name: string
  /** The documented verification endpoint (`verifyUrl` replaces it). */
  readonly url: string
  /** The form field the vendor's widget adds to the page's form. */
  readonly field: string
  /** hCaptcha checks the token against the site key when it is sent. */
  readonly sendsSiteKey: boolean
  /** reCAPTCHA v3 answers with a score from 0 (a bot) to 1 (a person). */
  readonly scored: boolean
}

export const VENDOR_WIRE: Readonly<Record<VendorKind, VendorWire>> = Object.freeze({
  turnstile: Object.freeze({ name: "Turnstile", url: "https://challenges.cloudflare.com/turnstile/v0/siteverify", field: "cf-turnstile-response", sendsSiteKey: false, scored: false }),
  hcaptcha: Object.freeze({ name: "hCaptcha", url: "https://api.hcaptcha.com/siteverify", field: "h-captcha-response", sendsSiteKey: true, scored: false }),
  recaptcha: Object.freeze({ name: "reCAPTCHA", url: "https://www.google.com/recaptcha/api/siteverify", field: "g-recaptcha-response", sendsSiteKey: false, scored: true }),
})
