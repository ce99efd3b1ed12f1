// The devices (sessions) the user is signed in on: listSessions, and revokeSession for one or all
// the others. Reloaded when the session changes (e.g. another tab signed in again).
import { useCallback, useEffect, useState } from "react"
import type { DeviceSession } from "gatehouse/client"
import { useAuthClient, useSession } from "gatehouse/react"
import { messageFor } from "./messages.js"

/** "Chrome on Linux" from a User-Agent header: enough to tell devices apart. */
function deviceName(userAgent: unknown): string {
  if (typeof userAgent !== "string" || userAgent === "") return "Unknown device"
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrom(e|ium)\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : "A browser"
  const system = /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Mac OS X/.test(userAgent) ? "macOS" : /Windows/.test(userAgent) ? "Windows" : /Linux/.test(userAgent) ? "Linux" : "another system"
  return `${browser} on ${system}`
}

const when = (value: unknown) => (typeof value === "string" ? new Date(value).toLocaleString() : "unknown")

export function Devices() {
  const client = useAuthClient()
  const { data } = useSession()
  const [devices, setDevices] = useState<DeviceSession[]>()
  const [error, setError] = useState<string>()

  const load = useCallback(() => {
    client.listSessions().then(setDevices, (failure: unknown) => setError(messageFor(failure)))
  }, [client])
  useEffect(load, [load, data])

  async function revoke(target: string | { others: true }) {
    setError(undefined)
    try {
      await client.revokeSession(target)
      load()
    } catch (failure) {
      setError(messageFor(failure))
    }
  }

  const others = devices?.filter((device) => !device.current) ?? []
  return (
    <section className="card" aria-labelledby="devices-heading">
      <h2 id="devices-heading">Your devices</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {devices === undefined ? (
        <p>Loading…</p>
      ) : (
        <ul className="devices" aria-label="Signed-in devices">
          {devices.map((device) => (
            <li key={device.id} data-current={device.current ? "" : undefined}>
              <span>
                <strong>{deviceName(device.userAgent)}</strong>
                {device.current && <span className="badge">This device</span>}
                <br />
                <small>Last active {when(device.lastSeenAt ?? device.createdAt)}</small>
              </span>
              {!device.current && (
                <button type="button" className="secondary" onClick={() => void revoke(device.id)} aria-label={`Sign out ${deviceName(device.userAgent)}, last active ${when(device.lastSeenAt ?? device.createdAt)}`}>
                  Sign out
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others.length > 1 && (
        <button type="button" className="link" onClick={() => void revoke({ others: true })}>
          Sign out all other devices
        </button>
      )}
    </section>
  )
}
