/**
 * `GET bot-challenge` (issue #33): a new ALTCHA challenge, in the format the `altcha` v3 widget
 * fetches from its `challenge` URL (altcha-lib's v2 protocol: `{ parameters, signature }`).
 * PBKDF2/SHA-256, which the widget's default bundle solves in workers with the browser's Web
 * Crypto (no WASM); signed with a key derived from the app's secret (keys.ts); expiring after
 * `altcha.expires` seconds; its cost raised while answers are being refused (abuse.ts). Never
 * cached: each challenge is for one answer. With ALTCHA off, answered as no action at all.
 */
import { createChallenge } from "altcha-lib"
import { deriveKey } from "altcha-lib/algorithms/pbkdf2"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { json } from "../../core/response.js"
import { UnknownAction } from "../../errors.js"
import { currentCost } from "./abuse.js"
import { currentKey } from "./keys.js"
import { ALGORITHM } from "./payload.js"

export async function botChallengeGet(ctx: RequestContext): Promise<ResponseInternal> {
  const settings = ctx.config.botProtection
  if (settings?.provider !== "altcha") throw new UnknownAction("No action at bot-challenge (bot protection with ALTCHA is off)")
  const challenge = await createChallenge({
    algorithm: ALGORITHM,
    // Random mode (a one-byte key prefix, about 256 tries): making a challenge costs nothing, and
    // the one key derivation of checking it is paid on the guarded door's POST, after its rate limit.
    cost: await currentCost(ctx.config.store, settings.altcha),
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + settings.altcha.expires,
    hmacSignatureSecret: currentKey(ctx.config.secrets),
  })
  return json(challenge, 200, { "Cache-Control": "no-store" })
}
