/**
 * A minimal OpenID provider on 127.0.0.1 that signs real ID tokens (jose, RS256) and counts every
 * discovery and JWKS request: the issuer for the outbound cache runs (single flight, JWKS refetch
 * bound, stale-while-revalidate) and the database-cut runs. Its authorization endpoint approves
 * at once; `delay` slows discovery and JWKS, `tokenDelay` the token endpoint; `down` makes
 * discovery and JWKS answer 503, `hang` makes them never answer; `kid` is the key id put in new ID
 * tokens (a kid the JWKS does not list is a forged one); `rotate()` publishes a new key and signs
 * with it from then on. Several instances can share one code store, so a sign-in started at one
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
  hang: boolean
  kid: string
  rotate(): Promise<string>
  close(): Promise<void>
}

export async function startOidcRogue(codes: CodeStore = new Map(), clientId = "rogue-client"): Promise<OidcRogue> {
  const { publicKey, privateKey: firstKey } = await generateKeyPair("RS256")
  const jwks = [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" }]
  const signing = new Map([["k1", firstKey]])
  const op = { counts: { discovery: 0, jwks: 0, token: 0 }, delay: 0, tokenDelay: 0, down: false, hang: false, kid: "k1" } as OidcRogue
  op.rotate = async () => {
    const kid = `k${jwks.length + 1}`
    const pair = await generateKeyPair("RS256")
    jwks.push({ ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" })
    signing.set(kid, pair.privateKey)
    op.kid = kid
    return kid
  }
  let next = 0
  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body))
  const later = (res: ServerResponse, body: () => unknown): void => {
    // Hanging: no answer ever; the connection stays open until the caller gives up or close().
    if (op.hang) return
    setTimeout(() => (op.down ? json(res, 503, { error: "down" }) : json(res, 200, body())), op.delay)
  }
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
        return later(res, () => ({ keys: jwks }))
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
          // A forged kid is signed with the first key: its signature is never checked (no such key).
          .sign(signing.get(op.kid) ?? firstKey))
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
