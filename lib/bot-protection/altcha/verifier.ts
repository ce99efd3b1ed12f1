/**
 * The ALTCHA verifier (issue #33), made once per configuration: reads the widget's answer
 * (payload.ts), checks it with altcha-lib (the signature with every accepted key, keys.ts; the
 * expiry; the solution), then spends it: the challenge's signature is claimed in the shared store
 * until the challenge expires, so an answer is accepted once across every process sharing the
 * store. A refused answer raises the cost of the next challenges (abuse.ts). Never "unavailable":
 * nothing outside this app is asked. A store that cannot take the claim throws its own named
 * error (`StoreUnavailable`): a single use that cannot be checked is not let through.
 */
import { verifySolution } from "altcha-lib"
import { deriveKey } from "altcha-lib/algorithms/pbkdf2"
import type { ResolvedConfig } from "../../core/config/resolved.js"
import type { BotVerifier, ResolvedBotProtection } from "../settings.js"
import { noteRefusal } from "./abuse.js"
import { acceptedKeys } from "./keys.js"
import { readPayload, type AltchaPayload } from "./payload.js"

/** Beyond the expiry, for processes whose clocks differ a little. */
const CLAIM_MARGIN = 60

/** True when altcha-lib accepts the answer under one of the app's keys. */
async function solved(config: ResolvedConfig, payload: AltchaPayload): Promise<boolean> {
  for (const key of acceptedKeys(config.secrets)) {
    try {
      const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: key })
      // Signed with another key (before a rotation): try the next one. Anything else is final.
      if (!result.invalidSignature) return result.verified
    } catch {
      // altcha-lib throws on parameters it cannot use (a key length PBKDF2 refuses): not an answer.
      return false
    }
  }
  return false
}

async function refused(config: ResolvedConfig): Promise<"refused"> {
  await noteRefusal(config.store).catch((error: unknown) => config.logger.error(error as Error))
  return "refused"
}

export function altchaVerifier(_settings: ResolvedBotProtection): BotVerifier {
  return {
    kind: "altcha",
    // The widget's default `name`: the hidden input it adds to the form.
    field: "altcha",
    async verify(config, token) {
      const payload = readPayload(token)
      if (!payload || !(await solved(config, payload))) return refused(config)
      const ttl = payload.challenge.parameters.expiresAt - Date.now() / 1000 + CLAIM_MARGIN
      // One caller in all the processes gets true for a signature (SET NX in Redis).
      if (!(await config.store.claim(`bot:altcha:used:${payload.challenge.signature}`, Math.max(1, ttl)))) return refused(config)
      return "ok"
    },
  }
}
