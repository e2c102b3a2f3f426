// The dashboard's build: served by the server at /app/ from dist/web (everything bundled, no CDN).
// `npm run dev:web` proxies /api to a server on :3000 (npm run dev).
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // Small budgets are checked by scripts/check-bundle-size.ts; this only quiets the map's JSON chunk.
    chunkSizeWarningLimit: 600,
    assetsInlineLimit: 0,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
})
