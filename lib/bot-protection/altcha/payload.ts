/**
 * The answer the `altcha` widget puts in its form field (issue #33): base64 of the JSON
 * `{ challenge: { parameters, signature }, solution: { counter, derivedKey, time } }`. Read
 * strictly: anything else (bad base64, bad JSON, wrong types, the widget's `test: true` answer, a
 * huge value) reads as nothing, so the verifier refuses it without handing it to altcha-lib.
 */
import type { ChallengeParameters, Solution } from "altcha-lib"

/** The key derivation every challenge made here uses (challenge.ts): the only one read. */
export const ALGORITHM = "PBKDF2/SHA-256"

export interface AltchaPayload {
  challenge: { parameters: ChallengeParameters & { expiresAt: number }; signature: string }
  solution: Solution
}

/** Longer than any answer the widget writes (about 600 characters). */
const MAX_LENGTH = 4096
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
const HEX = /^(?:[0-9a-f]{2})+$/

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)
const isHex = (value: unknown, max: number): value is string => typeof value === "string" && value.length <= max && HEX.test(value)
const isWhole = (value: unknown, min: number, max: number): value is number => typeof value === "number" && Number.isInteger(value) && value >= min && value <= max

function parametersOf(value: unknown): value is ChallengeParameters & { expiresAt: number } {
  if (!isRecord(value)) return false
  return (
    value.algorithm === ALGORITHM &&
    isHex(value.nonce, 128) &&
    isHex(value.salt, 128) &&
    isWhole(value.cost, 1, Number.MAX_SAFE_INTEGER) &&
    isWhole(value.keyLength, 1, 64) &&
    typeof value.keyPrefix === "string" &&
    value.keyPrefix.length > 0 &&
    value.keyPrefix.length <= 128 &&
    // Every challenge made here expires: one without an expiry was not made here.
    typeof value.expiresAt === "number" &&
    Number.isFinite(value.expiresAt)
  )
}

function solutionOf(value: unknown): value is Solution {
  return isRecord(value) && isWhole(value.counter, 0, 0xffffffff) && isHex(value.derivedKey, 256) && (value.time === undefined || typeof value.time === "number")
}

/** The widget's answer, or undefined when `token` is not one. */
export function readPayload(token: string): AltchaPayload | undefined {
  if (token.length > MAX_LENGTH || token.length % 4 !== 0 || !BASE64.test(token)) return undefined
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(token, "base64").toString("utf8"))
  } catch {
    return undefined
  }
  if (!isRecord(decoded) || !isRecord(decoded.challenge) || !solutionOf(decoded.solution)) return undefined
  const { parameters, signature } = decoded.challenge
  if (!parametersOf(parameters) || !isHex(signature, 128)) return undefined
  // Only what the widget sends goes on: an extra field cannot reach altcha-lib.
  return { challenge: { parameters, signature }, solution: { counter: decoded.solution.counter, derivedKey: decoded.solution.derivedKey } }
}
