/**
 * Contract checks for `updateAccountTokens` (issue #17): refreshed provider tokens replace the
 * stored ones, fields not given are kept, `null` clears one, and an unknown account is null.
 */
import { expect } from "@jest/globals"
import { newAccount, newUser, type ContractContext } from "./fixtures.js"

export function accountTokenChecks({ adapter, db, check }: ContractContext): void {
  check("updateAccountTokens replaces the given token fields, keeps the others, clears null ones, and is null for an unknown account", async () => {
    const user = await adapter().createUser(newUser())
    const account = newAccount(user.id, { provider: "tokens-provider", access_token: "old-access", refresh_token: "old-refresh", expires_at: 1000, id_token: "old-id", scope: "openid" })
    await adapter().linkAccount(account)
    const key = { provider: account.provider, providerAccountId: account.providerAccountId }
    const updated = await adapter().updateAccountTokens(key, { access_token: "new-access", refresh_token: "new-refresh", expires_at: 2000, id_token: null })
    expect(updated).toMatchObject({ ...key, userId: user.id, access_token: "new-access", refresh_token: "new-refresh", expires_at: 2000, scope: "openid" })
    expect(updated?.id_token ?? null).toBeNull()
    expect(await db.account(account.provider, account.providerAccountId)).toMatchObject({ userId: user.id, access_token: "new-access" })
    const read = await adapter().getAccount(account.providerAccountId, account.provider)
    expect(read).toMatchObject({ access_token: "new-access", refresh_token: "new-refresh", expires_at: 2000, scope: "openid" })
    expect(read?.id_token ?? null).toBeNull()
    expect(await adapter().updateAccountTokens({ provider: "tokens-provider", providerAccountId: "nobody" }, { access_token: "x" })).toBeNull()
  })
}
