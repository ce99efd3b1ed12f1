/**
 * Reading a vendor's answer (issue #33) into one of the verifier's three outcomes. Only an answer
 * of the documented shape counts: anything else ("yes" for `success`, a score that is not a
 * number, error codes that are not a list of strings) is a broken vendor, "unavailable", never a
 * pass and never a person's fault.
 *
 * - "ok": `success` is exactly `true`, the reported `action` (when the vendor reports one) is the
 *   door's own name, and for reCAPTCHA v3 `score >= threshold`;
 * - "refused": `success` is `false` for the token's sake (wrong, expired, used:
 *   invalid-input-response, timeout-or-duplicate...), a score under the threshold, or a token
 *   made for another door (the page's widget sets its action to the door's name: `signUp`,
 *   `emailSignIn`, `forgotPassword`, `signIn`);
 * - "unavailable": the vendor's own failure (internal-error), or a fault of the configuration
 *   (`fault`: a missing or wrong secret, a site key that is not the secret's, a request the
 *   vendor calls malformed, a reCAPTCHA key that gives no score), which the verifier logs loudly.
 *
 * The hostname is not compared: behind proxies Gatehouse cannot tell which name the page was
 * served under, and each vendor's dashboard already limits a site key to its domains.
 */
import type { BotAction } from "../settings.js"
import type { VendorWire } from "./wire.js"

export type Outcome = "ok" | "refused" | "unavailable"

export interface Verdict {
  outcome: Outcome
  /** Why, for the log (never the token or the secret). */
  reason: string
  /** Set when the configuration is at fault: which option to fix and how. */
  fault?: { option: "secret" | "siteKey" | ""; detail: string }
}

/** Codes that say the configuration is wrong, with the option to look at. */
const FAULTS: Readonly<Record<string, { option: "secret" | "siteKey" | ""; detail: string }>> = {
  "missing-input-secret": { option: "secret", detail: "the vendor received no secret" },
  "invalid-input-secret": { option: "secret", detail: "the vendor does not know this secret" },
  "sitekey-secret-mismatch": { option: "siteKey", detail: "the site key does not belong to this secret" },
  "bad-request": { option: "", detail: "the vendor called the verification request malformed" },
}
/** Codes that say the vendor itself failed; worth trying again later. */
const OUTAGES = new Set(["internal-error"])

const plainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

export function judge(wire: VendorWire, answer: unknown, action: BotAction, threshold: number): Verdict {
  if (!plainObject(answer) || typeof answer.success !== "boolean") return { outcome: "unavailable", reason: "the answer has no boolean success" }
  const codes = answer["error-codes"] ?? []
  if (!Array.isArray(codes) || !codes.every((code) => typeof code === "string")) return { outcome: "unavailable", reason: "error-codes is not a list of strings" }
  const listed = codes.length ? ` (${codes.slice(0, 5).join(", ").slice(0, 200)})` : ""
  const fault = codes.map((code) => FAULTS[code]).find(Boolean)
  if (fault) return { outcome: "unavailable", reason: `a configuration fault${listed}`, fault: { ...fault, detail: `${fault.detail}${listed}` } }
  if (codes.some((code) => OUTAGES.has(code))) return { outcome: "unavailable", reason: `the vendor failed${listed}` }
  if (!answer.success) return { outcome: "refused", reason: `success is false${listed}` }
  if (answer.action !== undefined && typeof answer.action !== "string") return { outcome: "unavailable", reason: "action is not a string" }
  // An empty action: the page's widget set none, so there is nothing to compare.
  if (answer.action && answer.action !== action) return { outcome: "refused", reason: `the token was made for another action (${answer.action.slice(0, 40)}, not ${action})` }
  if (!wire.scored) return { outcome: "ok", reason: "success" }
  if (answer.score === undefined) {
    return { outcome: "unavailable", reason: "the answer has no score", fault: { option: "", detail: "the answer has no score: are these reCAPTCHA v2 keys? Only v3 keys give a score" } }
  }
  if (typeof answer.score !== "number" || !(answer.score >= 0 && answer.score <= 1)) return { outcome: "unavailable", reason: "score is not a number from 0 to 1" }
  if (answer.score < threshold) return { outcome: "refused", reason: `score ${answer.score} is under the threshold ${threshold}` }
  return { outcome: "ok", reason: `score ${answer.score}` }
}
