/**
 * Issue #17 across processes: two app processes (their own Node processes, Gatehouse built from
 * this checkout) share Redis; one session cookie whose provider access token has expired is sent
 * to both, 50 requests at once, each calling getAccessToken. The real oidc-provider (rotating
 * refresh tokens: a second use of one would be refused and end the grant) counts one refresh
 * grant, and every answer carries the same new access token.
 */
import { execFile } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals"
import { createClient } from "redis"
import { SECRET, request } from "../helpers/app.js"
import { authorizationUrl, client, CLIENT_ID, CLIENT_SECRET, cookieHeader, cookieJar, local, oidc, signInFlow, startSignIn, startSite, type Site } from "../oauth/support.js"
import { ACCESS_TOKEN_TTL, countRefreshes, idpBrowser, idpConfiguration, sleep } from "../tokens/support.js"
import { RedisStore } from "../../lib/shared-store/redis.js"
import { REDIS_URL, report, startApp, stopAll, type AppProcess } from "./support/process.js"

// Not oauthSuite(): it closes sites after each test, and this IdP serves both tests.
jest.spyOn(console, "warn").mockImplementation(() => undefined)
jest.spyOn(console, "info").mockImplementation(() => undefined)
jest.setTimeout(180_000)

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const TOKEN_APP = fileURLToPath(new URL("./support/apps/token-app.js", import.meta.url))
// Inside node_modules, so the built files resolve their dependencies from this checkout.
const cacheDir = join(ROOT, "node_modules", ".cache")
let build: string
let site: Site
let A: AppProcess
let B: AppProcess
let redisClients: ReturnType<typeof createClient>[] = []
const prefix = `gh-res-tokens-${randomBytes(4).toString("hex")}:`

beforeAll(async () => {
  const { mkdirSync } = await import("node:fs")
  mkdirSync(cacheDir, { recursive: true })
  build = mkdtempSync(join(cacheDir, "gh17-"))
  // tsc emits even when files others are editing do not type-check; the run needs lib/ only.
  await promisify(execFile)("npx", ["tsc", "-p", "tsconfig.build.json", "--outDir", build], { cwd: ROOT }).catch(() => undefined)
  // The test's own app instance shares the store too: the IdP's back-channel logout reaches it.
  redisClients = [createClient({ url: REDIS_URL }), createClient({ url: REDIS_URL })]
  await Promise.all(redisClients.map((redis) => redis.connect()))
  site = await startSite({
    configuration: idpConfiguration(),
    clients: (url) => [client(url, { backchannel_logout_uri: `${url}/auth/backchannel-logout/idp`, backchannel_logout_session_required: true })],
    providers: (idp) => [oidc(idp, { authorization: { params: { scope: "openid email profile offline_access" } } })],
    config: () => ({ store: RedisStore({ client: redisClients[0] as never, subscriber: redisClients[1] as never, prefix }) }),
  })
  const env = {
    GH_SECRETS: JSON.stringify([SECRET]),
    GH_REDIS_URL: REDIS_URL,
    GH_REDIS_PREFIX: prefix,
    GH17_BUILD: build,
    GH17_ISSUER: site.idp.issuer,
    GH17_CLIENT_ID: CLIENT_ID,
    GH17_CLIENT_SECRET: CLIENT_SECRET,
  }
  ;[A, B] = await Promise.all([startApp("A", env, TOKEN_APP), startApp("B", env, TOKEN_APP)])
})

afterAll(async () => {
  await stopAll()
  await site?.close()
  await Promise.all(redisClients.map((redis) => redis.quit()))
  const redis = createClient({ url: REDIS_URL })
  await redis.connect()
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length) await redis.del(keys)
  await redis.quit()
  if (build) rmSync(build, { recursive: true, force: true })
})

test("50 concurrent getAccessToken calls on two processes after expiry: one refresh request at the provider", async () => {
  const refreshes = countRefreshes(site)
  const agent = site.agent()
  const { callback } = await signInFlow(site, agent)
  const cookie = cookieHeader(cookieJar(callback))
  await sleep(ACCESS_TOKEN_TTL * 1000 + 1100)
  const started = Date.now()
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => request(i % 2 ? B.origin : A.origin).get("/token?skew=0").set("Cookie", cookie)))
  const elapsed = Date.now() - started
  const errors = answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)
  expect(errors).toEqual([])
  const tokens = new Set(answers.map((answer) => answer.body.token as string))
  expect(tokens.size).toBe(1)
  expect(refreshes).toEqual({ count: 1, refused: 0 })
  const userinfo = await fetch(`${site.idp.issuer}/me`, { headers: { authorization: `Bearer ${[...tokens][0]}` } })
  expect(userinfo.status).toBe(200)
  report("Issue #17: one refresh across two processes", [{ requests: 50, processes: 2, refreshes: refreshes.count, "wall ms (printed, not asserted)": elapsed }])
})

test("the provider's back-channel logout ends the session on both processes", async () => {
  const agent = site.agent()
  const browser = idpBrowser(site.idp.issuer)
  const back = await browser.follow(authorizationUrl(await startSignIn(agent)).href)
  const callback = await agent.get(local(back as URL))
  const cookie = cookieHeader(cookieJar(callback))
  const user = async (origin: string) => (await request(origin).get("/auth/session").set("Cookie", cookie)).body?.user?.email ?? null
  expect([await user(A.origin), await user(B.origin)]).toEqual(["alice@example.com", "alice@example.com"])
  const delivered: string[] = []
  site.idp.provider.on("backchannel.success", () => delivered.push("ok"))
  site.idp.provider.on("backchannel.error", (_ctx: unknown, error: Error) => delivered.push(error.message))
  const page = await browser.follow(`${site.idp.issuer}/session/end?client_id=${CLIENT_ID}`)
  await browser.confirmLogout(page as Response)
  expect(delivered).toEqual(["ok"])
  expect([await user(A.origin), await user(B.origin)]).toEqual([null, null])
})
