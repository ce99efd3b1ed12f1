/**
 * The secret's strength, checked once at start-up: in production every secret (the current one
 * and the older ones kept for rotation, which still open sessions) must be at least 32 bytes, the
 * strength of the keys derived from it. Refused with `MissingSecret`: no usable secret is set.
 * Development keeps working with a short one (tests, demos).
 */
import { MissingSecretError } from "../../errors.js"

export const MIN_SECRET_BYTES = 32

/** How to make a secret, in the words every message about the secret uses. */
export const HOW_TO_MAKE_A_SECRET = "`npx gatehouse secret` or `openssl rand -base64 33`"

/** Where the secret at `index` came from, as the user named it. */
function sourceOf(index: number, fromOption: boolean, count: number): string {
  if (fromOption) return count > 1 ? `secret[${index}]` : "the `secret` option"
  return index === 0 ? "AUTH_SECRET" : `the older secret number ${index} of AUTH_SECRET_1..3`
}

export function assertSecretStrength(secrets: readonly string[], fromOption: boolean, production: boolean): void {
  if (!production) return
  secrets.forEach((secret, index) => {
    const bytes = Buffer.byteLength(secret, "utf8")
    if (bytes >= MIN_SECRET_BYTES) return
    throw new MissingSecretError(
      `${sourceOf(index, fromOption, secrets.length)} is ${bytes} byte${bytes === 1 ? "" : "s"} long; in production (NODE_ENV=production) a secret must be at least ${MIN_SECRET_BYTES} bytes. ` +
        `Make one with ${HOW_TO_MAKE_A_SECRET} and set it as AUTH_SECRET.`,
    )
  })
}
