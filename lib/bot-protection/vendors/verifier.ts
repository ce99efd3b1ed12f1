/**
 * The vendors' verifier (issue #33): Turnstile, hCaptcha or reCAPTCHA v3, one server-side POST
 * per check to `verifyUrl` (default: the vendor's documented endpoint, wire.ts), made on
 * Gatehouse's outbound transport (lib/outbound/transport.ts): a connect and a total timeout, the
 * answer read up to a cap, no redirect followed. The URL is the app's own configuration, so a
 * loopback or private host is allowed (a vendor's relay, a test server).
 *
 * `verify` never throws. A timeout, a network error, a status outside 2xx, an answer that is not
 * JSON, too long or not of the documented shape is "unavailable", which the door turns into a
 * refusal or a pass as `botProtection.onOutage` says (check.ts). A configuration fault the vendor
 * reports (a wrong secret...) is also "unavailable", and is logged as `InvalidOption` naming the
 * option to fix, on every check, since every check fails until it is fixed. Neither the token
 * nor the secret is ever logged.
 */
import { isIP } from "node:net"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import { InvalidOption } from "../../errors.js"
import { DEFAULT_OUTBOUND, type OutboundLimits } from "../../outbound/options.js"
import { call } from "../../outbound/transport.js"
import type { BotAction, BotVerifier, ResolvedBotProtection } from "../settings.js"
import { judge, type Outcome } from "./answer.js"
import { VENDOR_WIRE } from "./wire.js"

/**
 * The transport's default timeouts; the body capped far lower than a provider's 1 MiB, since a
 * siteverify answer is a few hundred bytes and a person waits on this call at the door.
 */
export const VERIFY_LIMITS: OutboundLimits = Object.freeze({ ...DEFAULT_OUTBOUND, maxResponseSize: 64 * 1024 })

/** The client's address as the vendors take it: an IP, never the /64 block an IPv6 client is counted by. */
const remoteIp = (ip: string | undefined) => (ip && isIP(ip) ? ip : undefined)

export function vendorVerifier(settings: ResolvedBotProtection, limits: OutboundLimits = VERIFY_LIMITS): BotVerifier {
  const kind = settings.provider
  const vendor = settings.vendor
  if (kind === "altcha" || !vendor) throw new InvalidOption("botProtection.provider: the vendors' verifier needs { turnstile }, { hcaptcha } or { recaptcha }")
  const wire = VENDOR_WIRE[kind]
  const url = new URL(vendor.verifyUrl ?? wire.url)
  const threshold = vendor.threshold ?? 0.5
  const option = `botProtection.provider.${kind}`
  const what = `bot protection (${wire.name}, ${url.host})`

  function outage(config: ResolvedConfig, reason: string): "unavailable" {
    config.logger.debug(`${what}: no usable answer (${reason})`)
    return "unavailable"
  }

  async function ask(config: ResolvedConfig, token: string, input: { action: BotAction; ip?: string }): Promise<Outcome> {
    const form = new URLSearchParams({ secret: vendor!.secret, response: token })
    const ip = remoteIp(input.ip)
    if (ip) form.set("remoteip", ip)
    if (wire.sendsSiteKey) form.set("sitekey", vendor!.siteKey)
    let response: Response
    try {
      response = await call(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: form.toString() }, limits)
    } catch (error) {
      // The transport's named errors (ProviderTimeout, ProviderResponseTooLarge) or a network error's code.
      const failure = error as { type?: string; code?: string; message?: string }
      return outage(config, failure.type ?? failure.code ?? failure.message ?? "the call failed")
    }
    if (response.status < 200 || response.status > 299) return outage(config, `status ${response.status}`)
    let answer: unknown
    try {
      answer = JSON.parse(await response.text())
    } catch {
      return outage(config, "the answer is not JSON")
    }
    const verdict = judge(wire, answer, input.action, threshold)
    if (verdict.fault) {
      const path = verdict.fault.option ? `${option}.${verdict.fault.option}` : option
      config.logger.error(new InvalidOption(`${path}: ${wire.name} could not check any answer: ${verdict.fault.detail}. Every check is "unavailable" (botProtection.onOutage decides) until this is fixed`))
      return "unavailable"
    }
    if (verdict.outcome === "unavailable") return outage(config, verdict.reason)
    if (verdict.outcome === "refused") config.logger.debug(`${what}: ${input.action} refused (${verdict.reason})`)
    return verdict.outcome
  }

  return Object.freeze({
    kind,
    field: wire.field,
    async verify(config: ResolvedConfig, token: string, input: { action: BotAction; ip?: string }) {
      try {
        return await ask(config, token, input)
      } catch {
        // Nothing above should throw (a custom logger is guarded too); whatever did is an outage, not a pass.
        return "unavailable" as const
      }
    },
  })
}
