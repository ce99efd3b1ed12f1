/**
 * A port on 127.0.0.1 whose connections are never accepted: a listener in a stopped process with
 * a backlog of 1, its queue filled first. New connections then get no answer at all (SYNs
 * dropped), as from a host that has gone away, so only a connect timeout ends them.
 */
import { spawn } from "node:child_process"
import { connect, type Socket } from "node:net"

export async function unreachablePort(): Promise<{ port: number; close: () => void }> {
  const child = spawn(process.execPath, ["-e", "const s=require('net').createServer().listen({port:0,host:'127.0.0.1',backlog:1},()=>console.log(s.address().port))"], {
    stdio: ["ignore", "pipe", "ignore"],
  })
  const fillers: Socket[] = []
  const close = () => {
    for (const socket of fillers) socket.destroy()
    child.kill("SIGKILL")
  }
  try {
    const port = await new Promise<number>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))))
    child.kill("SIGSTOP")
    for (let i = 0; i < 8; i++) fillers.push(connect(port, "127.0.0.1").on("error", () => undefined))
    await new Promise((resume) => setTimeout(resume, 200))
    return { port, close }
  } catch (error) {
    close()
    throw error
  }
}
