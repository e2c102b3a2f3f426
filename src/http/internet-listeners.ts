// The ports a server on the open internet listens on when Linkwell holds its own certificates
// (ACME_EMAIL, issue 43): HTTPS_PORT with the certificate of the name asked for (SNI, from memory;
// a name we hold none for is refused at the handshake, a handshake without a name gets the main
// host's), and HTTP_PORT, which keeps serving short links (a printed QR code may carry http://),
// ACME and domain challenges, and sends the dashboard and API to https. Both hand requests to the
// app's front door, as PORT's server does; PORT keeps serving plain HTTP for a proxy in front.
import http from 'node:http'
import https from 'node:https'
import { isIP, type Socket } from 'node:net'
import type { SecureContext } from 'node:tls'

/** Sockets accepted on HTTP_PORT: requests on them may be sent to https (see `isPlainInternetRequest`). */
const plainInternetSockets = new WeakSet<Socket>()

/** True for a request that arrived on HTTP_PORT (not PORT, whose proxy may terminate TLS itself). */
export function isPlainInternetRequest(request: http.IncomingMessage): boolean {
  return plainInternetSockets.has(request.socket)
}

export interface CertificateSource {
  contextOf(hostname: string): SecureContext | undefined
  materialOf(hostname: string): { cert: string; key: string } | undefined
  onLoad(listener: (hostname: string) => void): void
}

export interface InternetListenOptions {
  host: string
  httpPort: number
  httpsPort: number
  /** PUBLIC_URL's host: its certificate answers handshakes that name no host. */
  publicHostname: string
  certificates: CertificateSource
  timeouts: { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number }
}

export interface InternetListeners {
  httpPort: number
  httpsPort: number
  close(): Promise<void>
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as { port: number }).port)
    })
  })
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
}

/** Listens on HTTP_PORT and HTTPS_PORT, handing every request to `frontDoor`. */
export async function listenOnTheInternet(frontDoor: http.RequestListener, options: InternetListenOptions): Promise<InternetListeners> {
  const { certificates, timeouts } = options
  const configure = <S extends http.Server>(server: S): S => {
    server.keepAliveTimeout = timeouts.keepAliveTimeout
    server.requestTimeout = timeouts.requestTimeout
    server.setTimeout(timeouts.connectionTimeout)
    return server
  }
  const plain = configure(http.createServer(frontDoor))
  plain.on('connection', (socket: Socket) => plainInternetSockets.add(socket))

  const secure = configure(https.createServer({
    SNICallback: (servername, callback) => {
      // An address is no name (RFC 6066 §3), though some clients send one: the default, as without a name.
      if (isIP(servername) !== 0) return callback(null, undefined)
      const context = certificates.contextOf(servername)
      if (context) callback(null, context)
      else callback(new Error(`no certificate for ${servername}`))
    },
  }, frontDoor))
  // A handshake without a name (an IP address typed in, an old client) gets the main host's.
  const useDefault = (hostname: string) => {
    const material = hostname === options.publicHostname ? certificates.materialOf(hostname) : undefined
    if (material) secure.setSecureContext(material)
  }
  useDefault(options.publicHostname)
  certificates.onLoad(useDefault)

  const httpPort = await listen(plain, options.httpPort, options.host)
  const httpsPort = await listen(secure, options.httpsPort, options.host)
  return {
    httpPort,
    httpsPort,
    close: async () => {
      await Promise.all([closeServer(plain), closeServer(secure)])
    },
  }
}
