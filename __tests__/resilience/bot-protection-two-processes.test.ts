/**
 * Bot protection (issue #33): an ALTCHA answer is single use across processes. Two app processes,
 * A and B, share Redis (RedisStore: where a used answer is claimed) and the secret (what signs the
 * challenges); every sign-in must carry a solved challenge. A challenge fetched from A and solved
 * (as the widget does, with altcha-lib) signs in on A; the same answer sent to B is refused with
 * BotChallengeFailed, and so is it sent to A again; a fresh one works on B.
 */
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals"
import { createClient } from "redis"
import { solveChallenge, type Challenge } from "altcha-lib"
import { deriveKey } from "altcha-lib/algorithms/pbkdf2"
import { ensureBuilt } from "../helpers/build.js"
import { REDIS_URL, startApp, stopAll, type AppProcess } from "./support/process.js"
import { CookieJar, csrf, postForm, send } from "./support/process-http.js"

const APP = fileURLToPath(new URL("./support/apps/bot-app.js", import.meta.url))
const SECRETS = JSON.stringify(["bot-protection-two-processes-0123456789abcd"])
const redisPrefix = `gh-res-bot-${randomBytes(4).toString("hex")}:`
let A: AppProcess
let B: AppProcess
let redis: ReturnType<typeof createClient>

/** A fresh challenge from `origin`, solved: the widget's field value. */
async function solvedAnswer(origin: string): Promise<string> {
  const challenge = (await (await send(new CookieJar(), `${origin}/auth/bot-challenge`)).json()) as Challenge
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error("the challenge was not solved")
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString("base64")
}

/** A sign-in on `origin` with `answer`: "signed in", or the error it was refused with. */
async function signIn(origin: string, answer: string): Promise<string> {
  const jar = new CookieJar()
  const response = await postForm(origin, "/auth/callback/credentials", jar, { csrfToken: await csrf(origin, jar), username: `u${randomBytes(3).toString("hex")}`, password: "pw", altcha: answer, callbackUrl: "/" })
  expect(response.status).toBe(302)
  return new URL(response.headers.get("location") ?? "", origin).searchParams.get("error") ?? "signed in"
}

beforeAll(async () => {
  await ensureBuilt()
  redis = createClient({ url: REDIS_URL })
  await redis.connect()
  const env = { GH_SECRETS: SECRETS, GH_REDIS_URL: REDIS_URL, GH_REDIS_PREFIX: redisPrefix }
  ;[A, B] = await Promise.all([startApp("A-bot", env, APP), startApp("B-bot", env, APP)])
}, 120_000)

afterAll(async () => {
  await stopAll()
  const keys = await redis.keys(`${redisPrefix}*`)
  if (keys.length) await redis.del(keys)
  await redis.quit()
})

describe("an ALTCHA answer on two processes sharing Redis", () => {
  test("used on A, it is refused on B and on A again; a fresh one works on B", async () => {
    const answer = await solvedAnswer(A.origin)
    expect(await signIn(A.origin, answer)).toBe("signed in")
    expect(await signIn(B.origin, answer)).toBe("BotChallengeFailed")
    expect(await signIn(A.origin, answer)).toBe("BotChallengeFailed")
    // B takes A's challenges (same secret), once: it refuses only what was used.
    expect(await signIn(B.origin, await solvedAnswer(A.origin))).toBe("signed in")
    expect(await signIn(A.origin, "")).toBe("BotChallengeFailed")
  }, 60_000)
})
