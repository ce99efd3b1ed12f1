/**
 * Harness for the ALTCHA suite (not a test file): a password site with bot protection, and a
 * client that does what the `altcha` widget does in the browser: fetch a challenge from
 * `bot-challenge`, solve it (altcha-lib's solver, PBKDF2 as the widget's workers run it), and put
 * base64 of `{ challenge: { parameters, signature }, solution }` in the `altcha` field.
 */
import { solveChallenge, type Challenge } from "altcha-lib"
import { deriveKey } from "altcha-lib/algorithms/pbkdf2"
import type { Agent } from "../helpers/app.js"
import type { BotProtectionOptions } from "../../lib/bot-protection/settings.js"
import type { AuthConfig } from "../../lib/types.js"
import { startPasswordSite, type PasswordSite } from "../password/support.js"

/** Cheap challenges, so that solving one in a test takes a moment. */
export const ALTCHA = { cost: 1, maxCost: 8, expires: 60 } as const

export function botSite(config: Partial<AuthConfig> = {}, botProtection: BotProtectionOptions = { altcha: ALTCHA }): Promise<PasswordSite> {
  return startPasswordSite({ config: { rateLimit: false, botProtection, ...config } })
}

export async function fetchChallenge(agent: Agent): Promise<Challenge> {
  const response = await agent.get("/auth/bot-challenge").expect(200)
  return response.body as Challenge
}

/** The widget's field value: base64 of the JSON it builds once the work is done. */
export function widgetPayload(challenge: Challenge, solution: unknown): string {
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString("base64")
}

/** A fresh challenge of `agent`'s site, solved: the answer a person's browser would send. */
export async function solvedToken(agent: Agent, edit?: (challenge: Challenge) => void): Promise<string> {
  const challenge = await fetchChallenge(agent)
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error("the challenge was not solved")
  edit?.(challenge)
  return widgetPayload(challenge, solution)
}
