/**
 * A stand-in for a bot-protection vendor's verification endpoint (not a test file): a node:http
 * server on 127.0.0.1 that takes the form-encoded POST Turnstile, hCaptcha and reCAPTCHA
 * document, records what it received, and answers what the test set: a JSON verdict, a status,
 * any text, a body far over the verifier's cap, or no answer at all. Closed after each test.
 */
import { afterEach } from "@jest/globals"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export type FakeAnswer =
  /** 200 with this value as JSON. */
  | { json: unknown }
  /** This status and raw body (text/plain unless `type` says otherwise). */
  | { status: number; body?: string; type?: string }
  /** 200 and a JSON verdict saying success (score 0.9 for reCAPTCHA), padded to `bytes`, sent in chunks without a length. */
  | { huge: number }
  /** Reads the request and never answers. */
  | "hang"

export interface Received {
  method: string
  path: string
  contentType: string
  /** The form fields as the vendor would read them. */
  fields: Record<string, string>
}

export interface FakeVendor {
  /** `http://127.0.0.1:<port>/siteverify` */
  url: string
  received: Received[]
  /** What the next requests get (until set again). Default: `{ json: { success: true } }`. */
  answer: FakeAnswer
  /** Resolves once `count` requests have arrived (no timers: safe under fake timers). */
  waitFor(count: number): Promise<Received[]>
  close(): Promise<void>
}

const open: FakeVendor[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((fake) => fake.close()))
})

function send(res: ServerResponse, answer: Exclude<FakeAnswer, "hang">): void {
  if ("json" in answer) {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer.json))
  } else if ("huge" in answer) {
    // Valid JSON saying success: only the verifier's cap can make it anything but a pass.
    res.writeHead(200, { "content-type": "application/json" })
    res.write('{"success":true,"score":0.9,"error-codes":[],"pad":"')
    const chunk = "x".repeat(16 * 1024)
    for (let sent = 0; sent < answer.huge; sent += chunk.length) res.write(chunk)
    res.end('"}')
  } else {
    res.writeHead(answer.status, { "content-type": answer.type ?? "text/plain" }).end(answer.body ?? "")
  }
}

export async function startFakeVendor(): Promise<FakeVendor> {
  const received: Received[] = []
  const waiting: Array<{ count: number; resolve: (all: Received[]) => void }> = []
  const fake: FakeVendor = {
    url: "",
    received,
    answer: { json: { success: true } },
    waitFor: (count) => new Promise((resolve) => (received.length >= count ? resolve(received) : waiting.push({ count, resolve }))),
    close: () => Promise.resolve(),
  }
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      received.push({
        method: req.method ?? "",
        path: new URL(req.url ?? "/", "http://fake").pathname,
        contentType: req.headers["content-type"] ?? "",
        fields: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))),
      })
      for (const wait of waiting.filter((each) => received.length >= each.count)) {
        waiting.splice(waiting.indexOf(wait), 1)
        wait.resolve(received)
      }
      const answer = fake.answer
      if (answer !== "hang") send(res, answer)
    })
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`
  fake.close = () =>
    new Promise<void>((closed) => {
      // A hanging answer keeps its socket open: closed here.
      server.closeAllConnections()
      server.close(() => closed())
    })
  open.push(fake)
  return fake
}
