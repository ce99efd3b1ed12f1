// The child side of a benchmark server: listens on a free loopback port, tells the runner over
// IPC, and answers the runner's questions (CPU time used, heap after garbage collection) until it
// is told to stop. Every server in bench/servers/ ends with `serve(app, { close })`.
export function serve(app, { close } = {}) {
  if (typeof process.send !== "function") throw new Error("bench servers are started by bench/run.js (they talk to it over IPC)")
  const server = app.listen(0, "127.0.0.1", () => {
    process.send({ type: "ready", port: server.address().port })
  })
  server.on("error", (error) => {
    console.error(error)
    process.exit(1)
  })
  process.on("message", async (message) => {
    switch (message?.type) {
      case "cpu":
        process.send({ type: "cpu", id: message.id, usage: process.cpuUsage() })
        break
      case "heap":
        for (let i = 0; i < 3; i++) globalThis.gc?.()
        {
          const { heapUsed, rss } = process.memoryUsage()
          process.send({ type: "heap", id: message.id, heapUsed, rss, gc: typeof globalThis.gc === "function" })
        }
        break
      case "stop":
        server.closeAllConnections?.()
        server.close()
        await close?.()
        process.exit(0)
    }
  })
}
