// Logos from the upload folder: nothing outside it may be read, whatever the path or link says.
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogoLoader, looksLikeUrl, readUploadedLogo, STORED_LOGO_SIZE } from '../../../src/modules/qr-codes/logo-source.js'
import { makeLogo } from './qr-test-support.js'

describe('logos from the upload folder', () => {
  let root: string
  let uploads: string
  let png: Buffer

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'lw-logo-'))
    uploads = path.join(root, 'uploads')
    await mkdir(path.join(uploads, 'brand'), { recursive: true })
    png = await makeLogo()
    await writeFile(path.join(uploads, 'brand', 'logo.png'), png)
    await writeFile(path.join(uploads, 'photo.jpg'), await makeLogo({ format: 'jpeg', size: 800 }))
    await writeFile(path.join(uploads, 'notes.txt'), 'not an image')
    await writeFile(path.join(uploads, 'big.png'), Buffer.concat([png, Buffer.alloc(501 * 1024)]))
    await writeFile(path.join(root, 'secret.png'), png)
    await symlink(path.join(root, 'secret.png'), path.join(uploads, 'link-out.png'))
    await symlink('/etc', path.join(uploads, 'etc-link'))
    await symlink(path.join(uploads, 'brand', 'logo.png'), path.join(uploads, 'link-in.png'))
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('reads a file inside the folder, by relative or absolute path, and through a link that stays inside', async () => {
    expect((await readUploadedLogo(uploads, 'brand/logo.png')).equals(png)).toBe(true)
    expect((await readUploadedLogo(uploads, path.join(uploads, 'brand/logo.png'))).equals(png)).toBe(true)
    expect((await readUploadedLogo(uploads, './brand/../brand/logo.png')).equals(png)).toBe(true)
    expect((await readUploadedLogo(uploads, 'link-in.png')).equals(png)).toBe(true)
  })

  it.each([
    ['../../etc/passwd'],
    ['../secret.png'],
    ['/etc/passwd'],
    ['brand/../../secret.png'],
    ['link-out.png'],
    ['etc-link/passwd'],
    ['.'],
  ])('refuses %s as outside the upload folder', async (given) => {
    await expect(readUploadedLogo(uploads, given)).rejects.toThrow('The logo could not be read: the path is outside the upload folder.')
  })

  it('refuses missing files, folders, non-images and files over 500 KB', async () => {
    await expect(readUploadedLogo(uploads, 'missing.png')).rejects.toThrow('The logo could not be read: there is no such file in the upload folder.')
    await expect(readUploadedLogo(uploads, 'brand')).rejects.toThrow('the path is not a file')
    await expect(readUploadedLogo(uploads, 'notes.txt')).rejects.toThrow('the file is not a PNG or JPEG image')
    await expect(readUploadedLogo(uploads, 'big.png')).rejects.toThrow('the image is larger than 500 KB')
    await expect(readUploadedLogo(uploads, 'brand/logo.png\0.txt')).rejects.toThrow('the path is not valid')
  })

  it('normalises to a PNG of at most 256 px and tells URLs from paths', async () => {
    const load = createLogoLoader({ uploadDir: uploads })
    const stored = await load('photo.jpg', 1)
    const metadata = await sharp(stored).metadata()
    expect(metadata.format).toBe('png')
    expect(metadata.width).toBe(STORED_LOGO_SIZE)
    expect(looksLikeUrl('https://example.com/a.png')).toBe(true)
    expect(looksLikeUrl('file:///etc/passwd')).toBe(true)
    expect(looksLikeUrl('brand/logo.png')).toBe(false)
    await expect(load('file:///etc/passwd', 1)).rejects.toThrow('The logo could not be fetched: only http and https addresses are allowed.')
  })
})
