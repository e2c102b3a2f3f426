import { describe, expect, it } from 'vitest'
import { isPublicAddress } from '../../src/core/address-policy.js'

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', // loopback
    '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', // private
    '169.254.169.254', '169.254.0.1', // link-local, cloud metadata
    '100.64.0.1', '100.127.255.255', // CGNAT
    '0.0.0.0', '0.1.2.3', // unspecified
    '224.0.0.1', '239.255.255.250', // multicast
    '240.0.0.1', '255.255.255.255', // reserved, broadcast
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '192.0.0.8', // documentation, benchmark, IETF
    '::1', '::', // loopback, unspecified
    'fc00::1', 'fd12:3456::1', // unique local
    'fe80::1', 'febf::1', 'fe80::1%eth0', // link-local
    'fec0::1', // site-local
    'ff02::1', // multicast
    '2001:db8::1', // documentation
    '2001::1', // Teredo
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0:0', // IPv4-mapped
    '::127.0.0.1', // IPv4-compatible (deprecated)
    '64:ff9b::a00:1', '64:ff9b::127.0.0.1', // NAT64 of private and loopback
    '2002:7f00:1::1', '2002:a00:1::', // 6to4 of loopback and private
    '64:ff9b:1::1', // local-use NAT64
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each([
    '8.8.8.8', '1.1.1.1', '93.184.215.14', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.1.1', '223.255.255.255',
    '2606:4700:4700::1111', '2a00:1450:4001:81b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })

  it.each(['', 'localhost', 'example.com', '256.1.1.1', '1.2.3', '::g', '10.0.0.1/8'])('refuses the non-address %j', (value) => {
    expect(isPublicAddress(value)).toBe(false)
  })
})
