/**
 * Password accounts: the policy (12 to 256 characters after NFKC, any characters), options
 * checked at start-up, a named error for a missing adapter method, rate limits on the actions,
 * the pages (no JavaScript, translated, `pages.*` overrides) and the sign-in page's links.
 */
import { describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Password from "../../lib/providers/password.js"
import { makeApp, request, testConfig } from "../helpers/app.js"
import { GOOD_PASSWORD, mailAt, post, registered, sessionUser, signIn, signUp, startPasswordSite, useLink } from "./support.js"

jest.setTimeout(60_000)

describe("the password policy", () => {
  it("counts characters after NFKC: a 12-character password of full-width or emoji characters is long enough; 11 is not", async () => {
    const site = await startPasswordSite()
    expect((await signUp(site.agent(), "ivan@example.com", "ｐａｓｓｗｏｒｄ１２３４")).status).toBe(200)
    expect((await signUp(site.agent(), "ivan2@example.com", "🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑")).status).toBe(200)
    const short = await signUp(site.agent(), "ivan3@example.com", "elevenchars")
    expect(short.status).toBe(400)
    expect(short.text).toContain("Use at least 12 characters")
  })

  it("a full-width password signs in when typed half-width (both normalise to the same)", async () => {
    const site = await startPasswordSite()
    await registered(site, "judy@example.com", "ｆｕｌｌｗｉｄｔｈ ｐａｓｓ")
    const agent = site.agent()
    expect((await signIn(agent, "judy@example.com", "fullwidth pass")).headers.location).not.toContain("error=")
  })

  it("refuses more than 256 characters with PasswordTooLong, and minLength is configurable", async () => {
    const site = await startPasswordSite({ password: { minLength: 16 } })
    const long = await signUp(site.agent(), "kim@example.com", "x".repeat(257))
    expect(long.status).toBe(400)
    expect(long.text).toContain("too long")
    expect((await signUp(site.agent(), "kim@example.com", "x".repeat(256))).status).toBe(200)
    expect((await signUp(site.agent(), "kim2@example.com", "fifteen chars!!")).text).toContain("at least 16 characters")
  })

  it("options are checked when the provider is made: weaker scrypt parameters or no way to send mail are InvalidOption", () => {
    const email = Nodemailer({ server: "smtp://127.0.0.1:25" })
    expect(() => Password({ email, hash: { ln: 14 } })).toThrow(expect.objectContaining({ type: "InvalidOption", message: expect.stringMatching(/hash\.ln/) }))
    expect(() => Password({})).toThrow(expect.objectContaining({ type: "InvalidOption", message: expect.stringMatching(/email/) }))
    expect(() => Password({ email, minLength: 4 })).toThrow(expect.objectContaining({ type: "InvalidOption" }))
  })

  it("an adapter without the password methods answers MissingAdapterMethods (501), never a 500", async () => {
    const { getPasswordHash: _g, setPasswordHash: _s, ...rest } = MemoryAdapter()
    const config = testConfig({ providers: [Password({ email: Nodemailer({ server: "smtp://127.0.0.1:25" }) })], adapter: rest })
    const agent = request.agent(makeApp(config))
    const page = await agent.get("/auth/signup").expect(200)
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(page.text)![1]!
    const answer = await agent.post("/auth/signup").type("form").send({ csrfToken, email: "x@example.com", password: GOOD_PASSWORD })
    expect(answer.status).toBe(501)
    expect(answer.body.error.type).toBe("MissingAdapterMethods")
  })
})

describe("rate limits", () => {
  it("sign-up, forgot-password and sign-in are limited per address (the existing limiter): 429 on the page", async () => {
    const site = await startPasswordSite({ config: { rateLimit: { enabled: true, email: { identifier: { limit: 2, window: 60 } }, credentials: { identifier: { limit: 2, window: 60 } } } } })
    for (let i = 0; i < 2; i++) expect((await post(site.agent(), "/auth/forgot-password", { email: "lee@example.com" })).status).toBe(200)
    const limited = await post(site.agent(), "/auth/forgot-password", { email: "lee@example.com" })
    expect(limited.status).toBe(429)
    expect(limited.text).toContain("Too many attempts")
    for (let i = 0; i < 2; i++) await signIn(site.agent(), "lee@example.com", "wrong password here")
    expect((await signIn(site.agent(), "lee@example.com", "wrong password here")).status).toBe(429)
  })
})

describe("the pages", () => {
  it("each page is a plain form (no script), in the request's language, and answers HEAD", async () => {
    const site = await startPasswordSite()
    for (const path of ["/auth/signup", "/auth/forgot-password", "/auth/reset-password?uid=x&token=y", "/auth/verify-email?uid=x&token=y"]) {
      const page = await site.agent().get(path).expect(200)
      expect(page.text).not.toContain("<script")
      expect(page.text).toContain('<form method="post"')
      await site.agent().head(path).expect(200)
    }
    const german = await site.agent().get("/auth/signup").set("Accept-Language", "de").expect(200)
    expect(german.headers["content-language"]).toBe("de")
    expect(german.text).toContain("Konto erstellen")
    const japanese = await site.agent().get("/auth/forgot-password").set("Accept-Language", "ja").expect(200)
    expect(japanese.text).toContain("パスワードをお忘れですか？")
  })

  it("the sign-in page shows the password form with links to sign-up and forgot-password", async () => {
    const site = await startPasswordSite()
    const page = await site.agent().get("/auth/signin").expect(200)
    expect(page.text).toContain('action="' + site.url.replace(/\/$/, "") + '/auth/callback/password"')
    expect(page.text).toMatch(/href="[^"]*\/auth\/signup\?callbackUrl=/)
    expect(page.text).toMatch(/href="[^"]*\/auth\/forgot-password\?callbackUrl=/)
    expect(page.text).toContain('autocomplete="current-password"')
  })

  it("pages.* send the browser to the app's own pages, with the same query (the link's token included)", async () => {
    const site = await startPasswordSite({ config: { pages: { signUp: "/my/signup", resetPassword: "/my/reset" } } })
    const signup = await site.agent().get("/auth/signup?callbackUrl=%2Fhome").redirects(0).expect(302)
    expect(new URL(signup.headers.location!).pathname).toBe("/my/signup")
    const reset = await site.agent().get("/auth/reset-password?uid=u1&token=abc").redirects(0).expect(302)
    const target = new URL(reset.headers.location!)
    expect(target.pathname).toBe("/my/reset")
    expect(target.searchParams.get("token")).toBe("abc")
  })

  it("change-password asks a signed-out visitor to sign in first, and comes back", async () => {
    const site = await startPasswordSite()
    const answer = await site.agent().get("/auth/change-password").redirects(0).expect(302)
    const target = new URL(answer.headers.location!)
    expect(target.pathname).toBe("/auth/signin")
    expect(target.searchParams.get("callbackUrl")).toContain("/auth/change-password")
  })

  it("requireVerifiedEmail: false signs in before the link is used (sign-up still answers the same)", async () => {
    const site = await startPasswordSite({ password: { requireVerifiedEmail: false } })
    expect((await signUp(site.agent(), "mona@example.com")).text).toContain("Check your email")
    await mailAt(site, 0)
    const agent = site.agent()
    expect((await signIn(agent, "mona@example.com")).headers.location).not.toContain("error=")
    expect(await sessionUser(agent)).toMatchObject({ email: "mona@example.com" })
  })

  it("a verify link sent before another sign-up of the same address still confirms only its own user (the attempt mails a reset link)", async () => {
    const site = await startPasswordSite()
    await signUp(site.agent(), "nina@example.com")
    const first = await mailAt(site, 0)
    await signUp(site.agent(), "nina@example.com", "the squatter's own password")
    const second = await mailAt(site, 1)
    expect(second.link.pathname).toBe("/auth/reset-password")
    const agent = site.agent()
    expect((await useLink(agent, first.link)).status).toBe(302)
    expect((await signIn(site.agent(), "nina@example.com", "the squatter's own password")).headers.location).toContain("error=CredentialsSignin")
  })

  it("a reset link proves the address: another way in that someone set up before the owner proved it is removed (account linking policy)", async () => {
    const site = await startPasswordSite()
    const adapter = site.adapter
    const squatter = await adapter.createUser!({ id: "squatted", email: "olga@example.com", emailVerified: null, name: null, image: null })
    await adapter.linkAccount!({ userId: squatter.id, type: "oauth", provider: "github", providerAccountId: "gh-squatter" })
    const agent = site.agent()
    await post(agent, "/auth/forgot-password", { email: "olga@example.com" })
    const { link } = await mailAt(site, 0)
    const reset = await useLink(agent, link, { password: GOOD_PASSWORD })
    expect(reset.status).toBe(302)
    expect(new URL(reset.headers.location!).pathname).toBe("/auth/notice")
    expect(await adapter.getUserByAccount!({ provider: "github", providerAccountId: "gh-squatter" })).toBeNull()
    expect((await adapter.getUser!("squatted"))?.emailVerified).toBeInstanceOf(Date)
    expect(await sessionUser(agent)).toMatchObject({ email: "olga@example.com" })
  })
})
