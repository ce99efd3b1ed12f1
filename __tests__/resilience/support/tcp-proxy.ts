/**
 * A TCP proxy on 127.0.0.1 for fault runs (issue #13): the app talks to PostgreSQL or Redis
 * through it, and a test cuts every connection at a chosen moment, mid-query, then lets
 * connections through again. `latency` holds each chunk in both directions for that many ms, so
 * requests are really in flight when the cut comes. While cut, new connections are reset at once.
 */
import { createServer, connect, type AddressInfo, type Socket } from "node:net"

export interface TcpProxy {
  port: number
  latency: number
  /** Connections opened through the proxy so far. */
  opened: number
  /** Resets every open connection, and every new one until `restore()`. */
  cut(): void
  restore(): void
  close(): Promise<void>
}

export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>()
  let down = false
  const relay = (from: Socket, to: Socket) =>
    from.on("data", (chunk: Buffer) => {
      if (proxy.latency) setTimeout(() => to.destroyed || to.write(chunk), proxy.latency)
      else to.write(chunk)
    })
  const server = createServer((client) => {
    if (down) return void client.resetAndDestroy()
    proxy.opened++
    const upstream = connect(targetPort, targetHost)
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      if (!client.destroyed) client.destroy()
      if (!upstream.destroyed) upstream.destroy()
    }
    for (const socket of pair) {
      socket.on("error", end)
      socket.on("close", end)
    }
    relay(client, upstream)
    relay(upstream, client)
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const proxy: TcpProxy = {
    port: (server.address() as AddressInfo).port,
    latency: 0,
    opened: 0,
    cut() {
      down = true
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy()
        upstream.destroy()
      }
      pairs.clear()
    },
    restore() {
      down = false
    },
    close() {
      proxy.cut()
      return new Promise((closed) => server.close(() => closed()))
    },
  }
  return proxy
}
