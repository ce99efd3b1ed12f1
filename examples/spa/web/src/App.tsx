// The app's one screen, chosen by the session's status: RequireAuth shows the home page to a
// signed-in user, the sign-in page to nobody, the second step in between, and a line while loading.
import { RequireAuth } from "gatehouse/react"
import { Home } from "./Home.js"
import { SecondFactor } from "./SecondFactor.js"
import { SignIn } from "./SignIn.js"

export function App() {
  return (
    <>
      <header>
        <div className="bar">
          <span className="app-name">Gatehouse SPA example</span>
        </div>
      </header>
      <main>
        <RequireAuth fallback={<p className="loading">Loading…</p>} unauthenticated={<SignIn />} secondFactor={<SecondFactor />}>
          <Home />
        </RequireAuth>
      </main>
    </>
  )
}
