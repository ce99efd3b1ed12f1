/**
 * The breached-password checks: the k-anonymity range client against a local server speaking the
 * Pwned Passwords range protocol (only the first 5 hex characters of the SHA-1 leave the process;
 * padded zero-count entries are not matches), and an offline list from a file the app provides.
 * Both refuse at sign-up with BreachedPassword, shown on the form.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { commonPasswords, haveIBeenPwned } from "../../lib/providers/password.js"
import { signUp, startPasswordSite } from "./support.js"

jest.setTimeout(60_000)

const BREACHED = "password1234567"
const sha1 = (text: string) => createHash("sha1").update(text).digest("hex").toUpperCase()

interface RangeServer {
  url: string
  paths: string[]
  headers: Array<string | undefined>
  close(): Promise<void>
}

/** A Pwned Passwords-compatible range API: `/range/<5 hex>` answers `SUFFIX:COUNT` lines, padded. */
async function startRangeServer(known: Record<string, number>, options: { status?: number } = {}): Promise<RangeServer> {
  const paths: string[] = []
  const headers: Array<string | undefined> = []
  const byHash = Object.entries(known).map(([password, count]) => [sha1(password), count] as const)
  const server: Server = createServer((req, res) => {
    paths.push(req.url ?? "")
    headers.push(req.headers["add-padding"] as string | undefined)
    const prefix = /^\/range\/([0-9A-F]{5})$/i.exec(req.url ?? "")?.[1]?.toUpperCase()
    if (!prefix || options.status) {
      res.writeHead(options.status ?? 400).end()
      return
    }
    const lines = byHash.filter(([hash]) => hash.startsWith(prefix)).map(([hash, count]) => `${hash.slice(5)}:${count}`)
    // Padding: suffixes that match nothing, with a count of 0.
    for (let i = 0; i < 5; i++) lines.push(`${createHash("sha1").update(`pad${i}`).digest("hex").toUpperCase().slice(5)}:0`)
    res.writeHead(200, { "content-type": "text/plain" }).end(lines.join("\r\n"))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address() as { port: number }
  return { url: `http://127.0.0.1:${address.port}`, paths, headers, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

const servers: RangeServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

describe("haveIBeenPwned(): the k-anonymity range client", () => {
  it("finds a breached password by its hash suffix, sending only the 5-character prefix (with Add-Padding)", async () => {
    const server = await startRangeServer({ [BREACHED]: 42 })
    servers.push(server)
    const check = haveIBeenPwned({ url: server.url })
    expect(await check(BREACHED)).toBe(true)
    expect(await check("an unlisted and long passphrase")).toBe(false)
    expect(server.paths).toEqual([`/range/${sha1(BREACHED).slice(0, 5)}`, `/range/${sha1("an unlisted and long passphrase").slice(0, 5)}`])
    expect(server.headers).toEqual(["true", "true"])
    for (const path of server.paths) expect(path).not.toContain(sha1(BREACHED).slice(5))
  })

  it("a padding entry (count 0) is no match; minCount sets the threshold", async () => {
    const server = await startRangeServer({ [BREACHED]: 3, "padded but never seen": 0 })
    servers.push(server)
    expect(await haveIBeenPwned({ url: server.url })("padded but never seen")).toBe(false)
    expect(await haveIBeenPwned({ url: server.url, minCount: 10 })(BREACHED)).toBe(false)
    expect(await haveIBeenPwned({ url: server.url, minCount: 3 })(BREACHED)).toBe(true)
  })

  it("sign-up refuses a breached password with BreachedPassword on the form; another password goes through", async () => {
    const server = await startRangeServer({ [BREACHED]: 1000 })
    servers.push(server)
    const site = await startPasswordSite({ password: { breachedCheck: haveIBeenPwned({ url: server.url }) } })
    const refused = await signUp(site.agent(), "frank@example.com", BREACHED)
    expect(refused.status).toBe(400)
    expect(refused.text).toContain("appears in known data breaches")
    expect(await site.adapter.getUserByEmail!("frank@example.com")).toBeNull()
    const accepted = await signUp(site.agent(), "frank@example.com", "an unlisted and long passphrase")
    expect(accepted.status).toBe(200)
    expect(accepted.text).toContain("Check your email")
  })

  it("a range server that fails does not block sign-up: the failure is logged and the length rules still apply", async () => {
    const server = await startRangeServer({}, { status: 503 })
    servers.push(server)
    const site = await startPasswordSite({ password: { breachedCheck: haveIBeenPwned({ url: server.url }) } })
    expect((await signUp(site.agent(), "gina@example.com", BREACHED)).status).toBe(200)
    expect(site.errors.mock.calls.some(([error]) => /breached-password check failed/.test(error.message))).toBe(true)
    expect((await signUp(site.agent(), "gina2@example.com", "short")).text).toContain("too short or too common")
  })
})

describe("commonPasswords(file): an offline list the app provides", () => {
  it("refuses a listed password whatever its case (after NFKC), accepts others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gh-common-"))
    const file = join(dir, "common.txt")
    writeFileSync(file, "123456789012\nqwertyuiopasdf\niloveyou1234\n")
    const check = commonPasswords(file)
    expect(check("QWERTYUIOPASDF")).toBe(true)
    expect(check("ｑｗｅｒｔｙｕｉｏｐａｓｄｆ")).toBe(true)
    expect(check("not on any list at all")).toBe(false)
    const site = await startPasswordSite({ password: { breachedCheck: [check] } })
    const refused = await signUp(site.agent(), "hank@example.com", "iloveyou1234")
    expect(refused.status).toBe(400)
    expect(refused.text).toContain("appears in known data breaches")
  })
})
