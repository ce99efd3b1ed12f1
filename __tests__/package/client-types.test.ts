/**
 * The typing of gatehouse/client (issue #35): `createAuthClient<Ids>()` takes only the provider
 * ids it was given, and `ProviderId<typeof config>` reads them from a configuration that keeps
 * them literal (structurally: no server code is imported). The `@ts-expect-error` lines are
 * checked by the type check (`npm run typecheck`): each fails it if the call it marks compiles.
 */
import { createAuthClient, type ProviderId } from "../../client/src/index.js"

const config = { providers: [{ id: "password" as const, type: "credentials" }, { id: "github" as const, type: "oauth" }] }
type Ids = ProviderId<typeof config>

test("ProviderId<typeof config> is the union of the configured ids; a configuration with string ids gives string", () => {
  const ids: Ids[] = config.providers.map((provider) => provider.id)
  // @ts-expect-error "google" is not configured
  const other: Ids = "google"
  const loose: ProviderId<{ providers: Array<{ id: string }> }> = "anything"
  expect([...ids, other, loose]).toEqual(["password", "github", "google", "anything"])
})

test("signIn accepts only the ids the client was typed with; the client starts loading at /auth", () => {
  const client = createAuthClient<Ids>({ broadcast: false })
  try {
    const typed: Array<Parameters<typeof client.signIn>[0]> = ["password", "github"]
    // @ts-expect-error not one of the client's providers
    const refused: Parameters<typeof client.signIn>[0] = "google"
    expect([...typed, refused]).toHaveLength(3)
    expect(client.basePath).toBe("/auth")
    expect(client.getState()).toEqual({ data: null, status: "loading" })
  } finally {
    client.destroy()
  }
})
