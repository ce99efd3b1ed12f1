/** A TCP port free on 127.0.0.1 right now (for a private server a suite starts: Redis, nginx, PostgreSQL). */
import { createServer, type AddressInfo } from "node:net"

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((closed) => server.close(() => closed()))
  return port
}
