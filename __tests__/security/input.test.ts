/**
 * Bad input, INPUT-01 … INPUT-08 (SECURITY-CATALOG.md §13): NAMED-4XX or a normal answer, never 5xx,
 * NO-LEAK, ALIVE. INPUT-02 d/e (slow bodies, trickled headers) are socket timeouts of the server, not
 * Gatehouse; INPUT-09 (fast-check fuzz) has its own file later.
 */
import { request as httpRequest } from "node:http"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import type { Express } from "express"
import {
  AUTH_URL, BASE, SESSION, assertAlive, assertNoLeak, buildApp, call, csrfPair, listen, preserveEnv, rawHeader, rawHttp,
  sessionCookie, sessionOf, signIn, type CsrfPair, type RawResponse, type Res,
} from "./fixtures.js"

preserveEnv("AUTH_URL")

let app: Express
let port: number
let close: () => Promise<void>
let pair: CsrfPair
beforeAll(async () => {
  app = buildApp(AUTH_URL).app
  ;({ port, close } = await listen(app))
  pair = await csrfPair(app)
})
afterAll(() => close())

/** NAMED-4XX: a redirect naming the type, or a JSON error of that type, never a 5xx. */
function expectNamed(res: Res | { status: number; headers: Record<string, unknown>; body: { error?: { type?: string } } }, types: string[]): void {
  expect(res.status).toBeLessThan(500)
  if (res.status === 302) {
    const type = new URL(String(res.headers.location)).searchParams.get("error")
    expect(types).toContain(type)
  } else {
    expect([400, 401, 403, 404, 405, 413, 415]).toContain(res.status)
    expect(types).toContain(res.body.error?.type)
  }
}

function raw(res: RawResponse): { status: number; headers: Record<string, unknown>; body: { error?: { type?: string } }; text: string } {
  const headers = Object.fromEntries(res.headers)
  assertNoLeak({ headers, text: res.body })
  let body = {}
  try {
    body = JSON.parse(res.body)
  } catch {
    // not JSON (Node's own 400 has no body)
  }
  return { status: res.status, headers, body, text: res.body }
}

const send = (lines: string[], body = "") => rawHttp(port, `${lines.join("\r\n")}\r\nHost: app.test:3000\r\nConnection: close\r\n\r\n${body}`).then(raw)
const creds = { username: "alice", password: "correct-horse" }

describe("INPUT-01 malformed JSON and form bodies", () => {
  const jsonBodies = ['{"csrfToken":', '{"a":1}}', "[]", "null", '"str"', "123", "\uFEFF{}", '{"csrfToken":"a","csrfToken":"b"}', `${"[".repeat(200)}${"]".repeat(200)}`, "{", ""]
  const formBodies = ["a=%", "a=%zz", "&&&=&=", `a${"[b]".repeat(50)}=1`, "a[1000000]=x", "%=%&=%%"]

  it.each(jsonBodies)("JSON %j", async (body) => {
    for (const path of ["/auth/callback/credentials", "/auth/session"]) {
      expectNamed(await call(app, "POST", path, { cookie: pair.cookie, json: body }), ["InvalidRequest", "MissingCSRF"])
    }
  })

  it("unparseable JSON is 400 InvalidRequest, a parsed body without the token is MissingCSRF", async () => {
    const bad = await call(app, "POST", "/auth/session", { cookie: pair.cookie, json: '{"csrfToken":' })
    expect([bad.status, bad.body.error.type]).toEqual([400, "InvalidRequest"])
    const array = await call(app, "POST", "/auth/session", { cookie: pair.cookie, json: "[]" })
    expect([array.status, array.body.error.type]).toEqual([400, "InvalidRequest"])
    const dup = await call(app, "POST", "/auth/session", { cookie: pair.cookie, json: '{"csrfToken":"a","csrfToken":"b"}' })
    expect([dup.status, dup.body.error.type]).toEqual([403, "MissingCSRF"])
  })

  it.each(formBodies)("form %j", async (body) => {
    for (const path of ["/auth/callback/credentials", "/auth/session", "/auth/signout"]) {
      expectNamed(await call(app, "POST", path, { cookie: pair.cookie, form: body }), ["InvalidRequest", "MissingCSRF"])
    }
  })

  it("10 000 form parameters are refused with 413", async () => {
    const body = Array.from({ length: 10_000 }, (_, i) => `p${i}=1`).join("&")
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: `csrfToken=${pair.token}&${body}` })
    expect([res.status, res.body.error.type]).toEqual([413, "PayloadTooLarge"])
    await assertAlive(app)
  })
})

/** Streams `total` bytes in chunks (no Content-Length) and resolves on the first response. */
function streamPost(total: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: "127.0.0.1", method: "POST", path: "/auth/session", headers: { Host: "app.test:3000", ...headers } })
    let sent = 0
    let answered = false
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
      if (!answered) req.end()
    }
    req.on("response", (res) => {
      answered = true
      let body = ""
      res.on("data", (d: Buffer) => (body += d.toString()))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on("error", (error) => (answered ? undefined : reject(error)))
    req.write("{")
    pump()
  })
}

describe("INPUT-02 huge and compressed bodies", () => {
  it("a: 10 MB JSON with Content-Length is 413", async () => {
    const res = await call(app, "POST", "/auth/session", { cookie: pair.cookie, json: `{"csrfToken":"${pair.token}","data":"${"x".repeat(10 * 1024 * 1024)}"}` })
    expect([res.status, res.body.error.type]).toEqual([413, "PayloadTooLarge"])
  })

  it("b: 10 MB chunked without Content-Length is 413 once the limit is crossed", async () => {
    const res = await streamPost(10 * 1024 * 1024, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" })
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body).error.type).toBe("PayloadTooLarge")
    await assertAlive(app)
  })

  it("c: a gzip body (10 MB of zeros in 10 kB) is refused with 415 without inflating", async () => {
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024))
    for (const encoding of ["gzip", "deflate", "br", "GZIP"]) {
      const res = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, headers: { "Content-Encoding": encoding }, raw: bomb, type: "application/json" })
      expect([res.status, res.body.error.type]).toEqual([415, "UnsupportedMediaType"])
    }
  })
})

describe("INPUT-03 unexpected content types and charsets", () => {
  const form = () => `csrfToken=${pair.token}&username=alice&password=correct-horse`
  it.each([
    ["text/plain", 415],
    ["multipart/form-data; boundary=x", 415],
    ["application/xml", 415],
    ["application/x-www-form-urlencoded; charset=utf-16", 415],
    ["application/json; charset=latin1", 415],
    ["application/json", 400],
  ])("%s is refused (%i), never parsed as a form", async (type, status) => {
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, raw: form(), type })
    expect(res.status).toBe(status)
    expect(res.body.error.type).toBe(status === 415 ? "UnsupportedMediaType" : "InvalidRequest")
    expect(sessionCookie(res)).toBe("")
  })

  it("a body with no Content-Type is refused with 415", async () => {
    const body = form()
    const res = await send(["POST /auth/callback/credentials HTTP/1.1", `Cookie: ${pair.cookie}`, `Content-Length: ${body.length}`], body)
    expect([res.status, res.body.error?.type]).toEqual([415, "UnsupportedMediaType"])
  })

  it("controls: urlencoded and JSON in UTF-8 are accepted", async () => {
    for (const type of ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=UTF-8"]) {
      expect(sessionCookie(await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, raw: form(), type }))).not.toBe("")
    }
    const json = JSON.stringify({ csrfToken: pair.token, ...creds })
    expect(sessionCookie(await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, raw: json, type: "application/json; charset=utf-8" }))).not.toBe("")
  })
})

describe("INPUT-04 non-UTF-8 and hostile Unicode", () => {
  it("invalid UTF-8 bytes in a body are 400 InvalidRequest", async () => {
    const body = Buffer.concat([Buffer.from(`csrfToken=${pair.token}&username=`), Buffer.from([0xff, 0xfe, 0xc0, 0xae]), Buffer.from("&password=x")])
    for (const type of ["application/x-www-form-urlencoded", "application/json"]) {
      const head = `POST /auth/callback/credentials HTTP/1.1\r\nHost: app.test:3000\r\nCookie: ${pair.cookie}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`
      const res = raw(await rawHttp(port, Buffer.concat([Buffer.from(head), body])))
      expect([res.status, res.body.error?.type]).toEqual([400, "InvalidRequest"])
    }
  })

  it.each([
    ["percent-encoded overlong bytes", `username=%C0%AE%C0%AE&password=x`],
    ["NUL in fields", `username=alice%00&password=correct-horse%00&callbackUrl=%2Fx%00y`],
    ["10 000 combining marks", `username=a${"%CC%81".repeat(10_000)}&password=x`],
  ])("%s are inert strings: a normal failed sign-in", async (_name, body) => {
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, form: `csrfToken=${pair.token}&${body}` })
    expect(res.status).toBe(302)
    expect(new URL(String(res.headers.location)).searchParams.get("error")).toBe("CredentialsSignin")
  })

  it("a lone surrogate in JSON, %FF in a query and raw bytes in the cookie never 5xx", async () => {
    const json = `{"csrfToken":"${pair.token}","username":"\\ud800","password":"x"}`
    const lone = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, json })
    expect(new URL(String(lone.headers.location)).searchParams.get("error")).toBe("CredentialsSignin")
    const page = await call(app, "GET", "/auth/signin?callbackUrl=%FF&error=%FF%FE", { accept: "text/html" })
    expect(page.status).toBe(200)
    const cookie = await rawHttp(port, Buffer.concat([Buffer.from(`GET /auth/session HTTP/1.1\r\nHost: app.test:3000\r\nCookie: ${SESSION}=`), Buffer.from([0xff, 0xfe]), Buffer.from("\r\nConnection: close\r\n\r\n")]))
    expect(cookie.status).toBe(200)
    expect(cookie.body.trim()).toBe("null")
  })
})

describe("INPUT-05 unexpected methods", () => {
  const ACTIONS = ["/auth/csrf", "/auth/providers", "/auth/session", "/auth/signin", "/auth/signin/credentials", "/auth/signout", "/auth/error", "/auth/verify-request", "/auth/callback/credentials"]

  it.each(ACTIONS)("%s: PUT, PATCH, DELETE, TRACE, PROPFIND, OPTIONS are 405 with Allow", async (path) => {
    for (const method of ["PUT", "PATCH", "DELETE", "TRACE", "PROPFIND", "OPTIONS"]) {
      const res = await send([`${method} ${path} HTTP/1.1`, "Cookie: marker=SECRET-COOKIE-42", "X-Marker: SECRET-HEADER-42"])
      expect([res.status, res.body.error?.type]).toEqual([405, "MethodNotAllowed"])
      expect(String(res.headers.allow)).toMatch(/^(GET|GET, HEAD|POST|GET, POST|GET, HEAD, POST)$/)
      expect(res.text).not.toMatch(/SECRET-(COOKIE|HEADER)-42/)
      expect(JSON.stringify(res.headers)).not.toMatch(/SECRET-(COOKIE|HEADER)-42/)
    }
  })

  it.each(["/auth/csrf", "/auth/providers", "/auth/error", "/auth/verify-request", "/auth/webauthn-options/credentials"])("POST %s is 405 with Allow", async (path) => {
    const res = await call(app, "POST", path, { cookie: pair.cookie, form: { csrfToken: pair.token } })
    expect([res.status, res.body.error.type]).toEqual([405, "MethodNotAllowed"])
    expect(res.headers.allow).toMatch(/GET/)
  })

  it("method overrides are ignored: a POST sign-out without a token is still refused", async () => {
    const { session } = await signIn(app)
    for (const [path, headers, form] of [
      ["/auth/signout", { "X-HTTP-Method-Override": "GET" }, {}],
      ["/auth/signout", { "X-Method-Override": "GET" }, { _method: "GET" }],
      ["/auth/signout?_method=GET", {}, {}],
    ] as Array<[string, Record<string, string>, Record<string, string>]>) {
      const res = await call(app, "POST", path, { cookie: `${session}; ${pair.cookie}`, headers, form })
      expect(res.headers.location).toBe(`${BASE}/auth/signin?error=MissingCSRF`)
    }
    expect(((await sessionOf(app, session))?.user as { name: string }).name).toBe("Alice")
  })
})

describe("INPUT-06 path traversal and odd provider ids or action names", () => {
  it.each([
    ["/auth/signin/..%2F..%2Fetc%2Fpasswd", 404, "InvalidProvider"],
    ["/auth/callback/..%2Fsession", 404, "InvalidProvider"],
    ["/auth/callback/%2e%2e", 404, "InvalidProvider"],
    ["/auth/callback/credentials%00", 404, "InvalidProvider"],
    ["/auth/callback/__proto__", 404, "InvalidProvider"],
    ["/auth/callback/constructor", 404, "InvalidProvider"],
    ["/auth/callback/hasOwnProperty", 404, "InvalidProvider"],
    ["/auth/callback/toString", 404, "InvalidProvider"],
    ["/auth/signin/CREDENTIALS", 404, "InvalidProvider"],
    [`/auth/callback/${"a".repeat(10_000)}`, 404, "InvalidProvider"],
    ["/auth/callback/credentials/extra/segments", 404, "UnknownAction"],
    ["/auth//callback//credentials", 404, "UnknownAction"],
    ["/auth/%63sr%66", 404, "UnknownAction"],
    ["/auth/CSRF", 404, "UnknownAction"],
    ["/auth/csrf;x=1", 404, "UnknownAction"],
    ["/auth/administrator", 404, "UnknownAction"],
    ["/auth/__proto__", 404, "UnknownAction"],
    ["/auth/signout/credentials", 404, "UnknownAction"],
  ])("GET %s is %i %s", async (path, status, type) => {
    const res = await send([`GET ${path} HTTP/1.1`])
    expect([res.status, res.body.error?.type]).toEqual([status, type])
  })

  it("%2F never acts as a separator: the credentials callback is not reached", async () => {
    const body = `csrfToken=${pair.token}&username=alice&password=correct-horse`
    const res = await send(["POST /auth/callback/idp%2F..%2Fcredentials HTTP/1.1", `Cookie: ${pair.cookie}`, "Content-Type: application/x-www-form-urlencoded", `Content-Length: ${body.length}`], body)
    expect([res.status, res.body.error?.type]).toEqual([404, "InvalidProvider"])
    expect(JSON.stringify(res.headers)).not.toContain(SESSION)
  })

  it("the error value only selects a message: no file, no template chosen by input", async () => {
    for (const value of ["../../../../etc/passwd", "../views/signin", "..%2F..%2Fviews%2Flayout", "layout", "__proto__", "constructor"]) {
      const res = await call(app, "GET", `/auth/error?error=${encodeURIComponent(value)}`, { accept: "text/html" })
      expect(res.status).toBe(200)
      expect(res.text).toContain("Something went wrong")
      expect(res.text).not.toMatch(/root:|<%|Sign in<\/h1>/)
    }
  })
})

describe("INPUT-07 type-confused query parameters", () => {
  it.each([
    "/auth/signin?callbackUrl[]=a&callbackUrl[]=b",
    "/auth/signin?callbackUrl[x]=y",
    "/auth/signin?callbackUrl=https://evil.example/&callbackUrl=/dashboard",
    "/auth/signout?callbackUrl=/a&callbackUrl=/b",
    "/auth/error?error[]=x",
    "/auth/error?error=AccessDenied&error=Configuration",
    "/auth/verify-request?provider[a]=b",
    "/auth/session?x[y][z]=1",
    "/auth/providers?__proto__[x]=1",
    "/auth/callback/credentials?code[]=a&state[]=b",
  ])("%s never 5xx", async (path) => {
    const res = await call(app, "GET", path, { accept: "text/html" })
    expect([200, 405]).toContain(res.status)
    if (path.includes("callbackUrl")) expect(res.text).not.toContain("evil.example")
    if (path.includes("AccessDenied")) expect(res.text).toContain("Something went wrong")
  })
})

describe("INPUT-08 header oddities and smuggling shapes", () => {
  it("odd cookies, Accept and huge headers are processed normally", async () => {
    const { session } = await signIn(app)
    const many = Array.from({ length: 200 }, (_, i) => `c${i}=${i}`).join("; ")
    for (const cookie of [`${many}; ${session}`, `novalue; ${session}`, `;;; ${session}`, `a b=c; ${session}`, `${session}; =x; ==`]) {
      expect(((await sessionOf(app, cookie))?.user as { name: string }).name).toBe("Alice")
    }
    const odd = await call(app, "GET", "/auth/session", {
      cookie: session,
      headers: { Accept: "*/*;q=foo", "User-Agent": "u".repeat(8 * 1024), "Accept-Language": Array.from({ length: 1000 }, (_, i) => `x${i}`).join(",") },
    })
    expect(odd.body.user.name).toBe("Alice")
  })

  it.each([
    ["Content-Length with Transfer-Encoding", ["Content-Length: 4", "Transfer-Encoding: chunked"], "0\r\n\r\n"],
    ["two Content-Length values", ["Content-Length: 4", "Content-Length: 5"], "a=bc"],
    ["obfuscated Transfer-Encoding", ["Transfer-Encoding: xchunked", "Content-Length: 4"], "a=bc"],
  ])("%s is refused by Node before Gatehouse, and only once", async (_name, lines, body) => {
    const smuggled = `${body}GET /auth/csrf HTTP/1.1\r\nHost: app.test:3000\r\n\r\n`
    const res = await rawHttp(port, `POST /auth/signout HTTP/1.1\r\nHost: app.test:3000\r\nContent-Type: application/x-www-form-urlencoded\r\n${lines.join("\r\n")}\r\n\r\n${smuggled}`)
    expect(res.status).toBe(400)
    expect(res.text.match(/HTTP\/1\.1 \d{3}/g)).toHaveLength(1)
    expect(rawHeader(res, "set-cookie")).toBeUndefined()
    await assertAlive(app)
  })
})
