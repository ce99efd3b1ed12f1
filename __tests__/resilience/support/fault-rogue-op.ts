/**
 * ROGUE-OP for fault runs (SECURITY-CATALOG.md §14 FAULT-04): a real HTTP server on 127.0.0.1
 * that plays an OAuth 2.0 / OIDC provider badly on purpose. The authorization endpoint approves
 * at once (redirects back with a code and the state); discovery, token and userinfo answers are
 * set per test. Every request is recorded; `close()` also drops hanging connections.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http"
import type { AddressInfo, Socket } from "node:net"

export type Handler = (req: IncomingMessage, res: ServerResponse) => void

export interface RogueOp {
  url: string
  /** Paths requested, in order. */
  seen: string[]
  discovery: Handler
  token: Handler
  userinfo: Handler
  close(): Promise<void>
}

export function sendJson(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { "Content-Type": "application/json", ...headers })
    res.end(typeof body === "string" ? body : JSON.stringify(body))
  }
}

/** Answers nothing, ever (the connection stays open until the server closes). */
export const hang: Handler = () => undefined

/** A server that records every request it gets (the target of a redirect that must not be followed). */
export async function recorder(host = "127.0.0.1"): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = []
  const server = createServer((req, res) => {
    hits.push(req.url ?? "")
    res.end("{}")
  })
  return { ...(await listen(server, host)), hits }
}

async function listen(server: Server, host = "127.0.0.1"): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((listening) => server.listen(0, host, listening))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => closed())
      }),
  }
}

export async function startRogueOp(): Promise<RogueOp> {
  const op = {
    seen: [] as string[],
    discovery: sendJson(404, {}),
    token: sendJson(200, { access_token: "at-1", token_type: "bearer" }),
    userinfo: sendJson(200, { sub: "rogue-1", email: "rogue@example.com", name: "Rogue" }),
  } as RogueOp
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://rogue.test")
    op.seen.push(url.pathname)
    req.resume()
    if (url.pathname === "/auth") {
      const back = new URL(url.searchParams.get("redirect_uri") ?? "")
      back.searchParams.set("code", "rogue-code")
      const state = url.searchParams.get("state")
      if (state) back.searchParams.set("state", state)
      res.writeHead(302, { Location: back.href })
      res.end()
    } else if (url.pathname.startsWith("/.well-known/")) op.discovery(req, res)
    else if (url.pathname === "/token") op.token(req, res)
    else if (url.pathname === "/me") op.userinfo(req, res)
    else {
      res.writeHead(404)
      res.end()
    }
  })
  const { url, close } = await listen(server)
  op.url = url
  op.close = close
  return op
}
