/**
 * Session changes between the tabs of one origin: a BroadcastChannel named after the base path,
 * or, where there is none, the `storage` event of a localStorage key (which fires in every other
 * tab of the origin). A message says only what happened; each tab asks the server itself.
 */
export type SyncEvent = "changed" | "signed-out"

export interface SessionSync {
  post(event: SyncEvent): void
  close(): void
}

interface Message {
  event: SyncEvent
  from: string
  at: number
}

const isMessage = (value: unknown): value is Message =>
  typeof value === "object" && value !== null && ((value as Message).event === "changed" || (value as Message).event === "signed-out") && typeof (value as Message).from === "string"

export function openSessionSync(name: string, onEvent: (event: SyncEvent) => void): SessionSync {
  const self = Math.random().toString(36).slice(2)
  const receive = (value: unknown) => {
    if (isMessage(value) && value.from !== self) onEvent(value.event)
  }
  if (typeof BroadcastChannel === "function") {
    const channel = new BroadcastChannel(name)
    channel.onmessage = (message: MessageEvent) => receive(message.data)
    // Outside a browser (a server-render script in Node), the channel must not keep the process alive.
    ;(channel as BroadcastChannel & { unref?: () => void }).unref?.()
    return {
      post: (event) => channel.postMessage({ event, from: self, at: Date.now() } satisfies Message),
      close: () => channel.close(),
    }
  }
  if (typeof window === "undefined" || typeof localStorage === "undefined") return { post() {}, close() {} }
  const listener = (event: StorageEvent) => {
    if (event.key !== name || !event.newValue) return
    try {
      receive(JSON.parse(event.newValue))
    } catch {
      // Another script's value under our key: not a message.
    }
  }
  window.addEventListener("storage", listener)
  return {
    post(event) {
      try {
        // A new value each time (the time), so the event fires even for the same news twice.
        localStorage.setItem(name, JSON.stringify({ event, from: self, at: Date.now() } satisfies Message))
      } catch {
        // Storage off (private mode, quota): the other tabs learn on their next refetch.
      }
    },
    close: () => window.removeEventListener("storage", listener),
  }
}
