/**
 * A secret rotation rolled out one process at a time (README "Sessions", secret rotation;
 * SECURITY-CATALOG FAULT-07): two apps that share a database, one a step ahead of the other, accept
 * each other's CSRF pairs, magic links and sessions at every step of the documented order (add the
 * new secret last everywhere, then move it to the front), and stop accepting the old secret's
 * values once it is gone.
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { TransactionalAdapter } from "../../lib/core/adapter.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import { ALICE, askForLink, codeIn, cookieHeader, follow, mailFor, setCookies, startSite, CSRF_COOKIE, SESSION_COOKIE, type Site } from "../email/support.js"
import { credentials, request } from "../helpers/app.js"

const S1 = "rotation-secret-one-5d1f7c2a9b3e4d6f8a0b1c2d3e4f5a6b"
const S2 = "rotation-secret-two-0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b"

/** An app (email + credentials providers, cookie sessions) with `secret`, on the shared database. */
function site(secret: string[], adapter: TransactionalAdapter): Promise<Site> {
  return startSite({
    adapter,
    providers: (smtp) => [credentials(), Nodemailer({ server: smtp.url, from: "no-reply@app.test" })],
    config: { secret, session: { strategy: "jwt" } },
  })
}

/** A csrf cookie value and its token, as `GET /auth/csrf` on `from` hands them out. */
async function csrfPair(from: Site): Promise<{ cookie: string; token: string }> {
  const response = await request(from.url).get("/auth/csrf").expect(200)
  const cookie = setCookies(response).find((c) => c.name === CSRF_COOKIE)
  return { cookie: cookie!.value!, token: response.body.csrfToken as string }
}

/** Posts alice's credentials to `to` with a csrf pair; returns where it sent the browser and the session cookie. */
async function signInWith(to: Site, pair: { cookie: string; token: string }) {
  const response = await request(to.url)
    .post("/auth/callback/credentials")
    .set("Cookie", cookieHeader({ [CSRF_COOKIE]: pair.cookie }))
    .type("form")
    .send({ csrfToken: pair.token, username: "alice", password: "correct-horse" })
  const location = new URL(String(response.headers.location))
  const session = setCookies(response).find((c) => c.name === SESSION_COOKIE && c.value !== "")?.value
  return { status: response.status, where: `${location.pathname}${location.search}`, session }
}

/**
 * Asks `from` for a mail (issue #19: it carries a one-time code, bound to this browser by a sealed
 * cookie), then types the code on `to` with that cookie: the POST's answer.
 */
async function codeFromTo(from: Site, to: Site) {
  const asking = from.agent()
  const before = from.smtp.messages.length
  const asked = await askForLink(asking, ALICE)
  const codeCookie = setCookies(asked).find((c) => c.name === "gatehouse.email-code")!.value!
  const code = codeIn((await from.smtp.waitFor(before + 1))[before]!)
  const pair = await csrfPair(to)
  return request(to.url)
    .post("/auth/callback/nodemailer")
    .set("Cookie", cookieHeader({ [CSRF_COOKIE]: pair.cookie, "gatehouse.email-code": codeCookie }))
    .type("form")
    .send({ csrfToken: pair.token, code })
}

/** Who `on` says the session cookie belongs to (GET /auth/session). */
async function whoIs(on: Site, session: string): Promise<string | null> {
  const response = await request(on.url).get("/auth/session").set("Cookie", cookieHeader({ [SESSION_COOKIE]: session })).expect(200)
  return (response.body as { user?: { email?: string } } | null)?.user?.email ?? null
}

describe("secret rotation, one process at a time", () => {
  const steps: Array<[string, string[], string[]]> = [
    ["step 1: A adds the new secret last", [S1, S2], [S1]],
    ["step 2: B adds it too", [S1, S2], [S1, S2]],
    ["step 3: A moves it to the front", [S2, S1], [S1, S2]],
    ["step 4: B moves it to the front", [S2, S1], [S2, S1]],
  ]

  it.each(steps)("%s: csrf pairs, sessions and magic links of each process work on the other", async (_step, secretA, secretB) => {
    const adapter = MemoryAdapter()
    const [a, b] = [await site(secretA, adapter), await site(secretB, adapter)]
    for (const [from, to] of [[a, b], [b, a]] as const) {
      // A csrf pair handed out by one process signs in on the other...
      const signedIn = await signInWith(to, await csrfPair(from))
      expect([signedIn.status, signedIn.where]).toEqual([302, "/"])
      // ...and the session it sealed reads on both.
      expect(await whoIs(from, signedIn.session!)).toBe(ALICE)
      expect(await whoIs(to, signedIn.session!)).toBe(ALICE)

      // A link mailed by one process signs in on the other.
      const { link } = await mailFor(from, from.agent(), ALICE)
      const followed = await follow(request.agent(to.url), link)
      expect([followed.status, new URL(String(followed.headers.location)).pathname]).toEqual([302, "/"])
      expect(setCookies(followed).some((c) => c.name === SESSION_COOKIE && c.value !== "")).toBe(true)

      // A one-time code asked for on one process is accepted on the other (issue #19).
      const typed = await codeFromTo(from, to)
      expect(typed.status).toBe(302)
      expect(new URL(String(typed.headers.location)).searchParams.get("error")).toBeNull()
      expect(setCookies(typed).some((c) => c.name === SESSION_COOKIE && c.value !== "")).toBe(true)
    }
  })

  it("step 5: once the old secret is gone, its csrf pairs, sessions and links are refused, and nothing else is", async () => {
    const adapter = MemoryAdapter()
    const old = await site([S1], adapter)
    const pair = await csrfPair(old)
    const session = (await signInWith(old, await csrfPair(old))).session!
    const { link } = await mailFor(old, old.agent(), ALICE)

    const rotated = await site([S2], adapter)
    expect((await signInWith(rotated, pair)).where).toBe("/auth/signin?error=MissingCSRF")
    expect(await whoIs(rotated, session)).toBeNull()
    const followed = await follow(request.agent(rotated.url), link)
    expect(new URL(String(followed.headers.location)).searchParams.get("error")).toBe("Verification")
    // A code cookie sealed with the old secret is no cookie: that browser never asked, as far as the new one knows.
    const typed = await codeFromTo(old, rotated)
    expect(new URL(String(typed.headers.location)).searchParams.get("error")).toBe("EmailCodeNotBound")
    // Its own values work.
    expect((await signInWith(rotated, await csrfPair(rotated))).where).toBe("/")
  })

  it("a csrf cookie Auth.js made with a secret list (hashed with the list joined by commas) is accepted", async () => {
    const app = await site([S1, S2], MemoryAdapter())
    const token = "f".repeat(64)
    const authjsCookie = `${token}|${createHash("sha256").update(`${token}${S1},${S2}`).digest("hex")}`
    expect((await signInWith(app, { cookie: authjsCookie, token })).where).toBe("/")
    // A cookie hashed with a secret the app does not have is not.
    const foreign = `${token}|${createHash("sha256").update(`${token}not-our-secret`).digest("hex")}`
    expect((await signInWith(app, { cookie: foreign, token })).where).toBe("/auth/signin?error=MissingCSRF")
  })

  it("a link asked for on one process cannot be asked for by a request that fails the csrf check on the other", async () => {
    const adapter = MemoryAdapter()
    const [a, b] = [await site([S1], adapter), await site([S2], adapter)]
    const agent = a.agent()
    await agent.get("/auth/csrf")
    // B does not know S1: A's pair is refused there, and no mail goes out.
    const pair = await csrfPair(a)
    const response = await request(b.url).post("/auth/signin/nodemailer").set("Cookie", cookieHeader({ [CSRF_COOKIE]: pair.cookie })).type("form").send({ csrfToken: pair.token, email: ALICE })
    expect(new URL(String(response.headers.location)).searchParams.get("error")).toBe("MissingCSRF")
    expect(b.smtp.messages).toHaveLength(0)
    expect((await askForLink(a.agent(), ALICE)).status).toBe(302)
  })
})
