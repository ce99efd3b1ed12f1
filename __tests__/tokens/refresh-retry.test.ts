/**
 * Issue #17: "a refresh token is never sent twice" with "network failures are retried once".
 * A real HTTP server stands in front of the real oidc-provider's token endpoint (rotating refresh
 * tokens: a spent one sent again is refused and ends the grant) and counts the refresh requests
 * that reach it. The one retry happens only when the first request certainly never left
 * (connection refused); a request that reached the provider and got no answer in time is not sent
 * again: TokenRefreshFailed, and the refresh token it carried may be spent at the provider.
 */
import { jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { DOUBT_TTL_SECONDS } from "../../lib/tokens/single-flight.js"
import type { StateStore } from "../../lib/shared-store/types.js"
import { makeApp, request, reserve, testConfig } from "../helpers/app.js"
import { redisStore } from "../sessions/setups.js"
import { cookieHeader, cookieJar, oauthSuite, oidc, signInFlow, startSite } from "../oauth/support.js"
import { countRefreshes, idpConfiguration, sleep, tokenRelay, tokenRoute } from "./support.js"

oauthSuite()
jest.setTimeout(40_000)

const provider = (idp: { issuer: string }, relay: { url: string }) =>
  oidc(idp as never, { token: relay.url, outbound: { timeout: 2000 }, authorization: { params: { scope: "openid email profile offline_access", prompt: "consent" } } })

async function relayedSite(debug: (message: string) => void = () => undefined, store?: StateStore) {
  const relay = await tokenRelay()
  const adapter = MemoryAdapter()
  const made = await startSite({
    configuration: idpConfiguration(),
    providers: (idp) => [provider(idp, relay)],
    config: () => ({ adapter, logger: { error: () => undefined, debug }, ...(store && { store }) }),
  })
  relay.issuer = made.idp.issuer
  tokenRoute(made.app, made.config)
  const agent = made.agent()
  const { callback } = await signInFlow(made, agent)
  expect(callback.status).toBe(302)
  const account = () => [...adapter.store.accounts.values()][0]
  return { made, relay, adapter, cookie: cookieHeader(cookieJar(callback)), account, refreshes: countRefreshes(made) }
}

let closing: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closing) await close()
  closing = []
})

test("connection refused, then the provider is back: one retry, and the refresh token reaches the provider once", async () => {
  const retries: string[] = []
  let reopen: () => void = () => undefined
  const { relay, made, cookie, account, refreshes } = await relayedSite((message) => {
    if (!message.includes("trying once more")) return
    retries.push(message)
    reopen()
  })
  closing.push(relay.close)
  const spent = account()?.refresh_token
  const port = relay.port()
  // The token endpoint's port refuses connections; it opens again when Gatehouse says it will retry.
  await relay.stop()
  reopen = () => void relay.start(port)
  const answer = await request(made.url).get("/token?skew=3600").set("Cookie", cookie)
  expect(answer.body.error).toBeUndefined()
  expect(answer.status).toBe(200)
  expect(retries).toHaveLength(1)
  expect(relay.refreshes).toBe(1)
  expect(refreshes).toEqual({ count: 1, refused: 0 })
  expect(account()?.access_token).toBe(answer.body.token)
  expect(account()?.refresh_token).not.toBe(spent)
  const userinfo = await fetch(`${made.idp.issuer}/me`, { headers: { authorization: `Bearer ${answer.body.token}` } })
  expect(userinfo.status).toBe(200)
})

test("the provider takes the request and does not answer in time: no second send, TokenRefreshFailed; later, the spent refresh token is refused (sign in again)", async () => {
  const retries: string[] = []
  const { relay, made, cookie, account, refreshes } = await relayedSite((message) => {
    if (message.includes("trying once more")) retries.push(message)
  })
  closing.push(relay.close)
  const stored = account()?.refresh_token
  relay.mode = "hang"
  const started = Date.now()
  const failed = await request(made.url).get("/token?skew=3600").set("Cookie", cookie)
  expect(failed.status).toBe(409)
  expect(failed.body.error).toBe("TokenRefreshFailed")
  expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
  // Past the retry pause and another timeout: still one request, and the IdP did act on it (it rotated the token).
  await sleep(2500)
  expect(relay.refreshes).toBe(1)
  expect(retries).toEqual([])
  expect(refreshes).toEqual({ count: 1, refused: 0 })
  // The account keeps the refresh token it had (Gatehouse never saw its successor).
  expect(account()?.refresh_token).toBe(stored)

  // A call at once is answered without sending the doubtful refresh token again.
  relay.mode = "forward"
  const again = await request(made.url).get("/token?skew=3600").set("Cookie", cookie)
  expect(again.body.error).toBe("TokenRefreshFailed")
  expect(relay.refreshes).toBe(1)

  // Later it is sent again; the provider had rotated it, so it is refused: the user signs in again.
  await sleep(DOUBT_TTL_SECONDS * 1000)
  const later = await request(made.url).get("/token?skew=3600").set("Cookie", cookie)
  expect(later.body.error).toBe("RefreshTokenError")
  expect(relay.refreshes).toBe(2)
  expect(refreshes).toEqual({ count: 2, refused: 1 })
})

test("two app instances sharing Redis: while one waits on the other's refresh, which is sent and gets no answer, it does not send the refresh token again", async () => {
  const prefix = `gh17-retry:${Date.now().toString(36)}:`
  const [redisA, redisB] = [await redisStore(prefix), await redisStore(prefix)]
  closing.push(redisA.close, redisB.close)
  const { relay, made, adapter, cookie, refreshes } = await relayedSite(undefined, redisA.store)
  closing.push(relay.close)
  const second = await reserve()
  closing.push(second.close)
  const configB = testConfig({ providers: [provider(made.idp, relay)], adapter, store: redisB.store })
  const appB = makeApp(configB)
  tokenRoute(appB, configB)
  second.attach(appB)

  relay.mode = "hang"
  const first = request(made.url).get("/token?skew=3600").set("Cookie", cookie).then((answer) => answer)
  // Instance A's request is at the provider (it holds the lock); now instance B asks for the same token.
  while (relay.refreshes < 1) await sleep(20)
  const waiting = request(second.url).get("/token?skew=3600").set("Cookie", cookie).then((answer) => answer)
  const [a, b] = await Promise.all([first, waiting])
  expect([a.body.error, b.body.error]).toEqual(["TokenRefreshFailed", "TokenRefreshFailed"])
  await sleep(500)
  expect(relay.refreshes).toBe(1)
  expect(refreshes).toEqual({ count: 1, refused: 0 })
})
