/**
 * Issue #19, one-time codes: the mail (real SMTP sink) carries a code next to the link; typed on
 * the verify-request page of the browser that asked, it signs in. Refused in another browser,
 * dead after 5 wrong tries, expired after its lifetime, spent by the link and spending it, in
 * both session strategies; the same answers for a known and an unknown address.
 */
import { describe, expect, it, jest } from "@jest/globals"
import { LETTERS } from "../../lib/email-codes/code.js"
import {
  ALICE, CSRF_COOKIE, SESSION_COOKIE, askForLink, codeIn, cookieHeader, request, type Site, elementsOf, expectError, follow, location, mailFor, postCode, sessionCookie, sessionOf, setCookies, startSite, typeCode,
} from "./support.js"

const CODE_COOKIE = "gatehouse.email-code"

/** Posts `code` from a fresh browser holding `codeCookie` (and a CSRF pair of its own). */
async function postCodeWith(site: Site, codeCookie: string, code: string) {
  const csrf = await request(site.url).get("/auth/csrf").expect(200)
  const pair = setCookies(csrf).find((c) => c.name === CSRF_COOKIE)!.value!
  return request(site.url)
    .post("/auth/callback/nodemailer")
    .set("Cookie", cookieHeader({ [CSRF_COOKIE]: pair, [CODE_COOKIE]: codeCookie }))
    .type("form")
    .send({ csrfToken: csrf.body.csrfToken as string, code })
    .redirects(0)
}

/** A code that is not `code` (same length and alphabet). */
const wrong = (code: string) => code.replace(/./, (c) => (c === "1" ? "2" : "1"))

describe("the mail and the verify-request page", () => {
  it("the mail shows a 6-digit code before the link; the page that asked has the field for it; typed there, it signs in", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { mail, link } = await mailFor(site, agent, ALICE, { callbackUrl: "/dashboard" })
    const code = codeIn(mail)
    expect(code).toMatch(/^\d{6}$/)
    const text = mail.mail.text ?? ""
    expect(text.indexOf(code.slice(0, 3))).toBeLessThan(text.indexOf(link.href))
    expect(mail.mail.html).toContain(`${code.slice(0, 3)} ${code.slice(3)}`)
    expect(mail.mail.html).toContain("Your sign-in code")

    const page = await agent.get("/auth/verify-request?provider=nodemailer&type=email").expect(200)
    const input = elementsOf(page.text).find((e) => e.tagName === "input" && e.attrs.name === "code")
    expect(input?.attrs).toEqual(expect.objectContaining({ autocomplete: "one-time-code", inputmode: "numeric", id: "email-code" }))
    expect(elementsOf(page.text).find((e) => e.tagName === "label")?.attrs.for).toBe("email-code")

    // Typed as a person might: with the space the mail shows.
    const response = await typeCode(agent, `${code.slice(0, 3)} ${code.slice(3)}`)
    expect(location(response).href).toBe(`${site.url}/dashboard`)
    expect(sessionCookie(response)).toBeDefined()
    expect(setCookies(response).find((c) => c.name === CODE_COOKIE)?.value).toBe("")
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
    const [user] = [...site.memory.store.users.values()]
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(site.memory.store.tokens.size).toBe(0)
  })

  it("a browser that asked for no code sees no field; `code: false` sends no code and sets no cookie", async () => {
    const site = await startSite({ provider: { code: false } })
    const agent = site.agent()
    const asked = await mailFor(site, agent, ALICE)
    expect(() => codeIn(asked.mail)).toThrow("no code")
    expect(asked.mail.mail.text).toContain("Open this link to sign in as")
    const page = await agent.get("/auth/verify-request").expect(200)
    expect(elementsOf(page.text).some((e) => e.attrs.name === "code")).toBe(false)
    expectError(await postCode(agent, "123456"), "signin", "EmailCodeNotBound")
    expect(sessionCookie(await follow(agent, asked.link))).toBeDefined()
  })

  it('code: { format: "letters" } sends 8 characters without look-alikes, typed in any case', async () => {
    const site = await startSite({ provider: { code: { format: "letters" } } })
    const agent = site.agent()
    const code = codeIn((await mailFor(site, agent, ALICE)).mail)
    expect(code).toHaveLength(8)
    for (const character of code) expect(LETTERS).toContain(character)
    const page = await agent.get("/auth/verify-request").expect(200)
    expect(elementsOf(page.text).find((e) => e.attrs.name === "code")?.attrs.inputmode).toBeUndefined()
    expect(sessionCookie(await typeCode(agent, code.toLowerCase()))).toBeDefined()
  })
})

describe("bound to the browser that asked", () => {
  it("the code in another cookie jar is refused, and does not spend the code or the link", async () => {
    const site = await startSite()
    const alice = site.agent()
    const { mail } = await mailFor(site, alice, ALICE)
    const code = codeIn(mail)
    // A browser with no code cookie at all.
    const stranger = site.agent()
    const refused = await postCode(stranger, code)
    expectError(refused, "signin", "EmailCodeNotBound")
    expect(sessionCookie(refused)).toBeUndefined()
    // A browser that asked for a code of its own (to alice's address too): alice's code is wrong there.
    const mallory = site.agent()
    await mailFor(site, mallory, ALICE)
    const mismatched = await postCode(mallory, code)
    expectError(mismatched, "verify-request", "EmailCodeInvalid")
    // A forged cookie is no cookie.
    expectError(await postCodeWith(site, "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..x.y.z", code), "signin", "EmailCodeNotBound")
    expect(site.memory.store.sessions.size).toBe(0)
    expect(sessionCookie(await typeCode(alice, code))).toBeDefined()
  })
})

describe("single use, tries, expiry", () => {
  it("4 wrong codes are answered on the verify-request page; the 5th kills the code and its link", async () => {
    const site = await startSite()
    const agent = site.agent()
    const { mail, link } = await mailFor(site, agent, ALICE)
    const code = codeIn(mail)
    for (let i = 0; i < 4; i++) {
      const response = await typeCode(agent, wrong(code))
      const url = expectError(response, "verify-request", "EmailCodeInvalid")
      const page = await agent.get(`${url.pathname}${url.search}`).expect(200)
      expect(page.text).toContain("That code is not right")
      expect(elementsOf(page.text).find((e) => e.attrs.name === "code")?.attrs["aria-invalid"]).toBe("true")
    }
    expectError(await typeCode(agent, wrong(code)), "signin", "EmailCodeLocked")
    expect(site.memory.store.tokens.size).toBe(0)
    // Dead: the right code, and the link, too.
    expectError(await postCode(agent, code), "signin", "EmailCodeLocked")
    expectError(await follow(site.agent(), link), "error", "Verification")
    expect(site.memory.store.sessions.size).toBe(0)
    const signin = await agent.get("/auth/signin?error=EmailCodeLocked").expect(200)
    expect(signin.text).toContain("Too many wrong codes. Ask for a new email.")
  })

  it("a code that cannot be one (letters, too short, too long) counts as a wrong try", async () => {
    const site = await startSite()
    const agent = site.agent()
    const code = codeIn((await mailFor(site, agent, ALICE)).mail)
    for (const typed of ["abcdef", "12345", "1234567", ""]) expectError(await postCode(agent, typed), "verify-request", "EmailCodeInvalid")
    expectError(await postCode(agent, "x".repeat(500)), "signin", "EmailCodeLocked")
    expectError(await postCode(agent, code), "signin", "EmailCodeLocked")
  })

  it("the link after the code is refused, and the code after the link", async () => {
    const site = await startSite()
    const agent = site.agent()
    const first = await mailFor(site, agent, ALICE)
    expect(sessionCookie(await typeCode(agent, codeIn(first.mail)))).toBeDefined()
    expectError(await follow(site.agent(), first.link), "error", "Verification")

    const other = site.agent()
    const second = await mailFor(site, other, ALICE)
    expect(sessionCookie(await follow(site.agent(), second.link))).toBeDefined()
    expectError(await typeCode(other, codeIn(second.mail)), "signin", "EmailCodeExpired")
    // The same code twice, with a copy of the code cookie: the second time, it is spent.
    const third = site.agent()
    const asked = await askForLink(third, ALICE)
    const codeCookie = setCookies(asked).find((c) => c.name === CODE_COOKIE)!.value!
    const [, , mail] = await site.smtp.waitFor(3)
    expect(sessionCookie(await postCode(third, codeIn(mail!)))).toBeDefined()
    expectError(await postCodeWith(site, codeCookie, codeIn(mail!)), "signin", "EmailCodeExpired")
  })

  it("expires after 10 minutes by default (the link lives on); code.maxAge sets it, never beyond the link's maxAge", async () => {
    const site = await startSite()
    const agent = site.agent()
    const now = Date.now()
    const { mail, link } = await mailFor(site, agent, ALICE)
    jest.spyOn(Date, "now").mockReturnValue(now + 10 * 60_000 + 1000)
    expectError(await postCode(agent, codeIn(mail)), "signin", "EmailCodeExpired")
    const page = await agent.get("/auth/verify-request").expect(200)
    expect(elementsOf(page.text).some((e) => e.attrs.name === "code")).toBe(false)
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
    jest.restoreAllMocks()

    const short = await startSite({ provider: { maxAge: 120, code: { maxAge: 3600 } } })
    const browser = short.agent()
    const start = Date.now()
    const asked = await mailFor(short, browser, ALICE)
    // The code lives as long as the link (2 minutes), not the hour asked for.
    jest.spyOn(Date, "now").mockReturnValue(start + 121_000)
    expectError(await postCode(browser, codeIn(asked.mail)), "signin", "EmailCodeExpired")
  })

  it("wrong tries count per code: a new email starts a new count", async () => {
    const site = await startSite()
    const agent = site.agent()
    const one = codeIn((await mailFor(site, agent, ALICE)).mail)
    for (let i = 0; i < 4; i++) await typeCode(agent, wrong(one))
    const two = codeIn((await mailFor(site, agent, ALICE)).mail)
    for (let i = 0; i < 4; i++) expectError(await typeCode(agent, wrong(two)), "verify-request", "EmailCodeInvalid")
    expect(sessionCookie(await typeCode(agent, two))).toBeDefined()
  })
})

describe("session strategies and accounts", () => {
  it.each(["database", "cookie"] as const)("a code sign-in with the %s strategy", async (strategy) => {
    const site = await startSite({ config: { session: { strategy } } })
    const agent = site.agent()
    const response = await typeCode(agent, codeIn((await mailFor(site, agent, ALICE)).mail))
    const token = sessionCookie(response)
    expect(token).toBeDefined()
    if (strategy === "database") expect(site.memory.store.sessions.has(token!)).toBe(true)
    else expect(site.memory.store.sessions.size).toBe(0)
    expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
    expect(setCookies(response).some((c) => c.name === SESSION_COOKIE)).toBe(true)
  })

  it("no difference between a known and an unknown address: same redirects, same cookies, same refusals", async () => {
    const site = await startSite()
    await site.memory.createUser({ id: "u-known", email: "known@example.com", emailVerified: new Date() })
    const shapes: unknown[] = []
    for (const address of ["known@example.com", "unknown@example.com"]) {
      const agent = site.agent()
      const asked = await mailFor(site, agent, address)
      const wrongTry = await typeCode(agent, wrong(codeIn(asked.mail)))
      const elsewhere = await postCode(site.agent(), codeIn(asked.mail))
      shapes.push([wrongTry.status, String(wrongTry.headers.location), elsewhere.status, String(elsewhere.headers.location), setCookies(wrongTry).map((c) => c.name)])
    }
    expect(shapes[0]).toEqual(shapes[1])
  })
})
