// The signed-in page: who is signed in (useSession), the app's own API (GET /api/notes with the
// session cookie), adding a passkey, the devices signed in, and signing out.
import { useEffect, useState } from "react"
import { useAuthClient, useSession } from "gatehouse/react"
import { Devices } from "./Devices.js"
import { messageFor } from "./messages.js"

interface Note {
  id: number
  text: string
}

export function Home() {
  const client = useAuthClient()
  const { data } = useSession()
  const user = data?.user
  const name = user?.name?.trim() || user?.email || "there"
  const [notes, setNotes] = useState<Note[]>()
  const [passkey, setPasskey] = useState<{ ok: boolean; text: string }>()

  // The app's API answers the same session: the cookie goes with a same-origin fetch.
  useEffect(() => {
    let live = true
    fetch("/api/notes", { headers: { accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<{ notes: Note[] }>) : { notes: [] }))
      .then((body) => live && setNotes(body.notes))
      .catch(() => live && setNotes([]))
    return () => {
      live = false
    }
  }, [])

  async function addPasskey() {
    setPasskey(undefined)
    try {
      await client.passkey.register({ name: "This browser" })
      setPasskey({ ok: true, text: "Passkey added. Next time, sign in with it." })
    } catch (failure) {
      setPasskey({ ok: false, text: messageFor(failure) })
    }
  }

  return (
    <div className="stack">
      <section className="card" aria-labelledby="hello">
        <h1 id="hello">Hello, {name}</h1>
        {user?.email && (
          <p>
            Signed in as <strong>{user.email}</strong>.
          </p>
        )}
        <div className="actions">
          <button type="button" onClick={() => void client.signOut({ redirect: false })}>
            Sign out
          </button>
          <a className="button secondary" href="/auth/account">
            Account and two-step verification
          </a>
        </div>
      </section>

      <section className="card" aria-labelledby="notes-heading">
        <h2 id="notes-heading">Your notes</h2>
        {notes === undefined ? (
          <p>Loading…</p>
        ) : (
          <ul id="notes">
            {notes.map((note) => (
              <li key={note.id}>{note.text}</li>
            ))}
          </ul>
        )}
      </section>

      {client.passkey.isSupported() && (
        <section className="card" aria-labelledby="passkey-heading">
          <h2 id="passkey-heading">Passkey</h2>
          <p>Sign in next time with your fingerprint, face or screen lock.</p>
          <button type="button" className="secondary" onClick={() => void addPasskey()}>
            Add a passkey
          </button>
          {passkey && (
            <p className={passkey.ok ? "notice" : "error"} role={passkey.ok ? "status" : "alert"}>
              {passkey.text}
            </p>
          )}
        </section>
      )}

      <Devices />
    </div>
  )
}
