// PLACEHOLDER: being written; replaced before commit.
import type { App, ModuleDeps } from '../../app.js'

export function registerLinkRoutes(_app: App, _deps: ModuleDeps): void {}
