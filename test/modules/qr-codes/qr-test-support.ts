// Shared by the QR tests: decoding rendered images back to their payload, and logo fixtures.
import jsQRModule from 'jsqr'
import sharp from 'sharp'

// jsqr is CommonJS with ES-style types: under NodeNext its default import is typed as the module
// object. At run time module.exports is the function, which also carries itself as `default`.
const jsQR = jsQRModule.default

/** Decodes the QR symbol in a PNG (or any image sharp reads); null when none is found. */
export async function decodeQrImage(image: Buffer): Promise<string | null> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const result = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)
  return result ? result.data : null
}

/** The RGB color of one pixel of an image. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const offset = (y * info.width + x) * info.channels
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!]
}

/** A square logo in one color, as PNG or JPEG bytes. */
export async function makeLogo(options: { size?: number; color?: { r: number; g: number; b: number }; format?: 'png' | 'jpeg' } = {}): Promise<Buffer> {
  const size = options.size ?? 120
  const image = sharp({ create: { width: size, height: size, channels: 3, background: options.color ?? { r: 200, g: 30, b: 30 } } })
  return options.format === 'jpeg' ? image.jpeg().toBuffer() : image.png().toBuffer()
}
