/**
 * `gatehouse/adapters/test-kit`: the adapter contract, as a Jest suite any adapter can run.
 *
 *   runAdapterContract("my adapter", { adapter: () => MyAdapter(db), db: backDoor })
 *
 * Every check builds its own fixtures (no order between checks), and verifies writes through the
 * back door (`db`), which reads storage without going through the adapter. A check can be left
 * out only with a reason, which is printed.
 */
import { afterAll, beforeAll, describe, it } from "@jest/globals"
import type { AdapterContractOptions, ContractContext } from "./fixtures.js"
import { sessionChecks } from "./sessions.js"
import { sessionListingChecks } from "./session-listing.js"
import { cookieSessionChecks } from "./cookie-sessions.js"
import { tokenChecks } from "./tokens.js"
import { linkingChecks } from "./linking.js"
import { accountTokenChecks } from "./account-tokens.js"
import { passwordChecks } from "./passwords.js"
import { passkeyDetailChecks } from "./passkey-details.js"
import { twoFactorChecks } from "./two-factor.js"
import { userChecks } from "./users.js"
import { userLockChecks } from "./user-lock.js"
import { organizationChecks } from "./organizations.js"
import { ssoChecks } from "./sso.js"
import { scimChecks } from "./scim.js"
import { adminChecks } from "./admin.js"
import { apiKeyChecks } from "./api-keys.js"
import { identityProviderChecks } from "./identity-provider.js"

export function runAdapterContract(name: string, options: AdapterContractOptions): void {
  describe(`${name}: adapter contract`, () => {
    let adapter: Awaited<ReturnType<ContractContext["adapter"]>> | undefined
    beforeAll(async () => {
      await options.setup?.()
      adapter = (await options.adapter()) as typeof adapter
    })
    afterAll(async () => {
      await options.teardown?.()
    })
    const context: ContractContext = {
      adapter: () => {
        if (!adapter) throw new Error("the adapter was not created")
        return adapter
      },
      db: options.db,
      check(checkName, test) {
        const reason = options.skip?.[checkName]
        if (reason !== undefined) {
          console.info(`[gatehouse adapter contract] ${name}: "${checkName}" left out: ${reason}`)
          return
        }
        it(checkName, test)
      },
    }
    describe("users and accounts", () => userChecks(context))
    describe("sessions", () => sessionChecks(context))
    describe("listing and revoking sessions (optional methods)", () => sessionListingChecks(context))
    describe("cookie-session records and revocations (optional methods)", () => cookieSessionChecks(context))
    describe("verification tokens and authenticators", () => tokenChecks(context))
    describe("accounts and passkeys of a user (Gatehouse extensions)", () => linkingChecks(context))
    describe("refreshed provider tokens (Gatehouse extension)", () => accountTokenChecks(context))
    describe("password hashes (Gatehouse extension)", () => passwordChecks(context))
    describe("passkey names and last use (Gatehouse extension)", () => passkeyDetailChecks(context))
    describe("two-factor records and recovery codes (Gatehouse extensions)", () => twoFactorChecks(context))
    describe("holding a user for a transaction (Gatehouse extension)", () => userLockChecks(context))
    describe("organizations, members and invitations (Gatehouse extensions)", () => organizationChecks(context))
    describe("SSO connections and domains (Gatehouse extensions)", () => ssoChecks(context))
    describe("SCIM tokens, users and groups (Gatehouse extensions)", () => scimChecks(context))
    describe("finding users and bans for the admin tools (Gatehouse extensions)", () => adminChecks(context))
    describe("API keys of users and organizations (Gatehouse extensions)", () => apiKeyChecks(context))
    describe("Identity provider records (Gatehouse extensions)", () => identityProviderChecks(context))
  })
}

export { newAccount, newUser, type AdapterContractOptions, type BackDoor, type ContractContext } from "./fixtures.js"
export { USER_LOCK_CHECK } from "./user-lock.js"
