/**
 * Email-and-password accounts, built in: `gatehouse/providers/password`. Gatehouse stores the
 * hashes (scrypt), runs sign-up, email verification, forgot/reset and change password, with pages
 * under the router (`signup`, `verify-email`, `forgot-password`, `reset-password`,
 * `change-password`). Needs an adapter (with `getPasswordHash`/`setPasswordHash`, verification
 * tokens and `deleteVerificationTokens`) and an email provider for the mails. README, "Password
 * accounts".
 */
import { CredentialsSignin } from "../errors.js"
import { dummyHash } from "../password/hash.js"
import { resolvePasswordOptions, type PasswordOptions, type PasswordProviderConfig } from "../password/options.js"

export default function Password(options: PasswordOptions): PasswordProviderConfig {
  // Called without options (plain JavaScript): the named InvalidOption, not a TypeError.
  const password = resolvePasswordOptions(options ?? ({} as PasswordOptions))
  // The dummy hash an unknown address is checked against, made now (once per process and
  // parameters), so the first such sign-in takes no longer than the others.
  dummyHash(password.hash).catch(() => undefined)
  return {
    id: options.id ?? "password",
    name: options.name ?? "Password",
    type: "credentials",
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username", required: true },
      password: { label: "Password", type: "password", autocomplete: "current-password", required: true },
    },
    // Never called: the callback checks the stored hash itself (lib/password/actions/sign-in.ts).
    authorize: () => {
      throw new CredentialsSignin("Password providers are checked by Gatehouse")
    },
    password,
  }
}

export { haveIBeenPwned, commonPasswords, type PasswordCheck, type HaveIBeenPwnedOptions } from "../password/breached.js"
export { hashPassword, verifyPassword, needsRehash, OWASP_SCRYPT, type ScryptParams } from "../password/hash.js"
export type { PasswordOptions, PasswordProviderConfig, PasswordMail } from "../password/options.js"
