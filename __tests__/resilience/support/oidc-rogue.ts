/**
 * A minimal OpenID provider on 127.0.0.1 that signs real ID tokens (jose, RS256) and counts every
 * discovery and JWKS request: the issuer for the outbound cache runs (single flight, JWKS refetch
 * bound, stale-while-revalidate) and the database-cut runs. Its authorization endpoint approves
 * at once; `delay` slows discovery and JWKS, `tokenDelay` the token endpoint; `down` makes
 * discovery and JWKS answer 503; `kid` is the key id put in new ID tokens (a kid the JWKS does not
 * list is a forged one). Several instances can share one code store, so a sign-in started at one
 * can finish at another.
 */
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { exportJWK, generateKeyPair, SignJWT } from "jose"

export type CodeStore = Map<string, { nonce?: string; sub: string }>

export interface OidcRogue {
  url: string
  counts: { discovery: number; jwks: number; token: number }
  delay: number
  tokenDelay: number
  down: boolean
  kid: string
  close(): Promise<void>
}

export async function startOidcRogue(codes: CodeStore = new Map(), clientId = "rogue-client"): Promise<OidcRogue> {
  const { publicKey, privateKey } = await generateKeyPair("RS256")
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" }
  const op = { counts: { discovery: 0, jwks: 0, token: 0 }, delay: 0, tokenDelay: 0, down: false, kid: "k1" } as OidcRogue
  let next = 0
  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body))
  const later = (res: ServerResponse, body: () => unknown) =>
    setTimeout(() => (op.down ? json(res, 503, { error: "down" }) : json(res, 200, body())), op.delay)
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", op.url)
    let raw = ""
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()))
    req.on("end", () => {
      if (url.pathname === "/.well-known/openid-configuration") {
        op.counts.discovery++
        return later(res, () => ({
          issuer: op.url,
          authorization_endpoint: `${op.url}/auth`,
          token_endpoint: `${op.url}/token`,
          jwks_uri: `${op.url}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
        }))
      }
      if (url.pathname === "/jwks") {
        op.counts.jwks++
        return later(res, () => ({ keys: [jwk] }))
      }
      if (url.pathname === "/auth") {
        const code = `code-${++next}-${Math.random().toString(36).slice(2)}`
        codes.set(code, { nonce: url.searchParams.get("nonce") ?? undefined, sub: `user-${next}` })
        const back = new URL(url.searchParams.get("redirect_uri") as string)
        back.searchParams.set("code", code)
        const state = url.searchParams.get("state")
        if (state) back.searchParams.set("state", state)
        return res.writeHead(302, { Location: back.href }).end()
      }
      if (url.pathname === "/token") {
        op.counts.token++
        const grant = codes.get(new URLSearchParams(raw).get("code") ?? "")
        if (!grant) return json(res, 400, { error: "invalid_grant" })
        const now = Math.floor(Date.now() / 1000)
        void new Promise((resume) => setTimeout(resume, op.tokenDelay))
          .then(() => new SignJWT({ nonce: grant.nonce, email: `${grant.sub}@example.com`, email_verified: true })
          .setProtectedHeader({ alg: "RS256", kid: op.kid })
          .setIssuer(op.url)
          .setAudience(clientId)
          .setSubject(grant.sub)
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(privateKey))
          .then((idToken) => json(res, 200, { access_token: `at-${grant.sub}`, token_type: "Bearer", expires_in: 300, id_token: idToken }))
        return
      }
      res.writeHead(404).end()
    })
  })
  const sockets = new Set<Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  op.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  op.close = () =>
    new Promise<void>((closed) => {
      for (const socket of sockets) socket.destroy()
      server.close(() => closed())
    })
  return op
}
