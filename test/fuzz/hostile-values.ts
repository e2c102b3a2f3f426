// What the fuzzer sends instead of a valid value: text that has broken databases, parsers and
// templates before, numbers at and past every limit, wrong JSON kinds, and random values.
import fc from 'fast-check'

const HOSTILE_TEXT = [
  '\u0000', 'a\u0000b', '\u0007bell', '\u001b[31mred', '\u0085next line', '\u009b', '\ud800', 'x\udfff', '\u202eevil', '\ufeffbom',
  "' OR 1=1 --", '"; drop table links; --', "\\'; select pg_sleep(1); --", '%', '_', '\\', '../../etc/passwd', '%00', '%2e%2e%2f',
  '${7*7}', '{{7*7}}', '<script>alert(1)</script>', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd',
  'http://127.0.0.1:22/', 'https://[::1]/', 'http://169.254.169.254/latest/meta-data', 'https://example.com/' + 'a'.repeat(5000),
  'https://exa mple.com', 'https://', 'http://xn--80ak6aa92e.com', 'https://例え.jp/パス', 'HTTPS://EXAMPLE.COM', 'https://a.b:99999/',
  '𝕏'.repeat(300), 'x'.repeat(70_000), ' ', '', '\n', '\t', 'NaN', 'Infinity', '-0', '1e309', '9'.repeat(40), '__proto__',
  'constructor', 'toString', '0x10', '١٢٣', '2031-02-30 25:61:61', '0000-00-00 00:00:00', '9999-12-31 23:59:59', 'rgb(256,0,0)',
  '#GGGGGG', 'overlay-99999999999', 'overlay-0', '99999999999', 'GTM-', 'https://lw.test/api/urls',
]

// Characters that must never reach a database or a page as they are, and whose position matters.
const FORBIDDEN = ['\u0000', '\u0001', '\u0008', '\u000b', '\u001f', '\u007f', '\u0085', '\u009f', '\ud800', '\udc00', '\n', '\t', '\r']

/** A forbidden character inside otherwise acceptable text, so that length and form rules pass. */
const hiddenForbidden = fc
  .tuple(fc.constantFrom('Fuzz name ', 'https://example.com/', 'fuzz@example.com', 'GTM-'), fc.constantFrom(...FORBIDDEN))
  .map(([text, forbidden]) => `${text}${forbidden}tail`)

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: hiddenForbidden },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
)

const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1.5, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)

/** Any JSON value a client could send for a field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { __proto__: null, admin: true }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(hostileString, hostileNumber), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(hostileString, hostileNumber), { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
)

function nested(depth: number, open: string, close: string): string {
  return open.repeat(depth) + close.repeat(depth)
}

/** Whole request bodies that are not the JSON object an endpoint takes. */
export const BODY_PAYLOADS: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom<string | Buffer>(
    '', ' ', '{', '}', '[]', 'null', '"text"', '1', 'true', '{"a":', '{"name":"x",}', "{'name':'x'}", '{"name":1e999}',
    '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"admin":true}}}', '{"name":"a","name":"b"}',
    nested(5000, '[', ']'), nested(2000, '{"a":', '}').replace(/}$/, '1}'), '\u0000', '{"name":"\\u0000"}', '{"name":"\\ud800"}',
    Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'),
)

/** Content types a body may arrive with. */
export const CONTENT_TYPES = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', '')

/** Path values where an id, a type or an alias is expected, URL-encoded where needed. */
export const ODD_IDS: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', '1e3', '99999999999999999999', '2147483648', '2147483647', '%00', 'abc', '%2e%2e', '..%2f..%2f', '%F0%9F%92%A9',
    '%20%31', '1%20', '0x1', '%ED%A0%80', '%FF', 'link', 'bio', 'qr', 'campaign', 'null', 'undefined', '__proto__', 'a'.repeat(300)),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
  fc.integer().map(String),
)
