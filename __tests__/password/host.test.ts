/**
 * HOST-02 for password mails (reset-link poisoning): with AUTH_URL set, the links in the reset and
 * "someone tried to register" mails have AUTH_URL's origin whatever Host and X-Forwarded-Host say.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { withEnv } from "../email/support.js"
import { GOOD_PASSWORD, mailAt, registered, startPasswordSite } from "./support.js"

jest.setTimeout(60_000)

const restores: Array<() => void> = []
afterEach(() => {
  for (const restore of restores.splice(0)) restore()
})

describe("password mails name the configured origin", () => {
  it("forged Host and X-Forwarded-Host never reach the reset or sign-up mails' links", async () => {
    const site = await startPasswordSite()
    await registered(site, "pat@example.com")
    restores.push(withEnv({ AUTH_URL: "http://app.test:3000/auth", AUTH_TRUST_HOST: undefined }))
    // A fresh site reads AUTH_URL when its configuration is resolved.
    const pinned = await startPasswordSite({ adapter: site.adapter })
    const agent = pinned.agent()
    const page = await agent.get("/auth/forgot-password").set("Host", "evil.example").set("X-Forwarded-Host", "evil.example")
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(page.text)?.[1] ?? ""
    const asked = await agent.post("/auth/forgot-password").set("Host", "evil.example").set("X-Forwarded-Host", "evil.example").type("form").send({ csrfToken, email: "pat@example.com" })
    await agent.post("/auth/signup").set("X-Forwarded-Host", "evil.example").type("form").send({ csrfToken, email: "pat@example.com", password: GOOD_PASSWORD })
    expect([page.status, asked.status]).toEqual([200, 200])
    const reset = await mailAt(pinned, 0)
    const exists = await mailAt(pinned, 1)
    for (const { mail, link } of [reset, exists]) {
      expect(link.origin).toBe("http://app.test:3000")
      expect(mail.raw).not.toContain("evil.example")
    }
  })
})
