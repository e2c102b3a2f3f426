// The source systems' tables and rows the importers' tests and the command line's import tests
// both read (Kutt's and Shlink's own migrations; see kutt-import.test.ts, shlink-import.test.ts).
import type { ScratchKind } from './source-databases.js'

export const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
export const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

export function kuttTables(kind: ScratchKind): string {
  const pg = kind === 'postgres'
  const id = pg ? 'id serial primary key' : 'id integer primary key autoincrement'
  const time = pg ? 'timestamptz' : 'datetime'
  const json = pg ? 'jsonb' : 'json'
  const counters = ['br_chrome', 'br_edge', 'br_firefox', 'br_ie', 'br_opera', 'br_other', 'br_safari', 'os_android', 'os_ios', 'os_linux', 'os_macos', 'os_other', 'os_windows']
    .map((column) => `${column} integer not null default 0`).join(', ')
  return `create table users (${id}, email varchar(255) not null);
create table domains (${id}, banned boolean not null default false, banned_by_id integer references users(id), address varchar(255) not null unique, homepage varchar(255), user_id integer references users(id) on delete set null, uuid varchar(36), created_at ${time} not null default CURRENT_TIMESTAMP, updated_at ${time} not null default CURRENT_TIMESTAMP);
create table links (${id}, address varchar(255) not null, description varchar(255), banned boolean not null default false, banned_by_id integer references users(id), domain_id integer references domains(id), password varchar(255), expire_in ${time}, target varchar(2097152) not null, user_id integer references users(id) on delete cascade, visit_count integer not null default 0, uuid varchar(36), created_at ${time} not null default CURRENT_TIMESTAMP, updated_at ${time} not null default CURRENT_TIMESTAMP, domain_name varchar(255));
create table visits (${id}, countries ${json} default '{}', created_at ${time} not null default CURRENT_TIMESTAMP, updated_at ${time} default CURRENT_TIMESTAMP, link_id integer references links(id) on delete cascade, referrers ${json} default '{}', total integer not null default 0, ${counters}, user_id integer)`
}

export function kuttRows(kind: ScratchKind, p: string, host: string): string {
  const pg = kind === 'postgres'
  const yes = pg ? 'true' : '1'
  const no = pg ? 'false' : '0'
  // Kutt on SQLite (knex over better-sqlite3) writes dates as epoch milliseconds; on PostgreSQL as timestamptz.
  const at = (iso: string) => (pg ? `'${iso}+00'` : String(Date.parse(`${iso.replace(' ', 'T')}Z`)))
  return `insert into users (email) values ('k@example.com');
insert into domains (address, user_id) values ('${host}', 1);
insert into links (address, description, banned, domain_id, target, user_id, visit_count, created_at) values
 ('${p}one', 'One', ${no}, null, 'https://example.com/one', 1, 5, ${at('2022-01-02 03:04:05')}),
 ('${p}two', null, ${no}, 1, 'https://example.com/two', 1, 1, ${at('2022-02-03 04:05:06')}),
 ('${p}evil', 'Evil', ${no}, null, 'javascript:alert(1)', 1, 4, ${at('2022-02-03 04:05:06')}),
 ('${p}banned', null, ${yes}, null, 'https://example.com/banned', 1, 0, ${at('2022-02-03 04:05:06')});
insert into visits (link_id, created_at, total, countries, referrers, br_chrome, br_safari, br_firefox, br_other, os_windows, os_ios, os_linux, os_macos, os_other) values
 (1, ${at('2023-01-01 10:00:00')}, 3, '{"us":2,"de":1}', '{"google[dot]com":2,"direct":1}', 2, 1, 0, 0, 2, 1, 0, 0, 0),
 (1, ${at('2023-01-01 11:00:00')}, 2, '{"us":1,"unknown":1}', '{"t[dot]co":2}', 0, 0, 2, 0, 0, 0, 1, 1, 0),
 (2, ${at('2023-01-02 09:00:00')}, 1, '{"fr":1}', '{"direct":1}', 0, 0, 0, 1, 0, 0, 0, 0, 1),
 (3, ${at('2023-01-02 09:00:00')}, 4, '{"us":4}', '{"direct":4}', 4, 0, 0, 0, 4, 0, 0, 0, 0)`
}

export function shlinkTables(kind: ScratchKind, t: (name: string) => string): string {
  const id = { postgres: 'id bigserial primary key', mysql: 'id bigint unsigned auto_increment primary key', sqlite: 'id integer primary key autoincrement' }[kind]
  const ref = kind === 'mysql' ? 'bigint unsigned' : kind === 'postgres' ? 'bigint' : 'integer'
  const time = kind === 'postgres' ? 'timestamp(0) without time zone' : 'datetime'
  const bool = kind === 'sqlite' ? 'boolean' : 'boolean'
  const real = kind === 'postgres' ? 'double precision' : 'double'
  const date = kind === 'mysql' ? '`date`' : 'date'
  return `create table ${t('domains')} (${id}, authority varchar(512) not null unique, base_url_redirect varchar(2048), regular_not_found_redirect varchar(2048), invalid_short_url_redirect varchar(2048));
create table ${t('short_urls')} (${id}, original_url varchar(2048) not null, short_code varchar(255) not null, date_created ${time} not null, valid_since ${time}, valid_until ${time}, max_visits integer, import_source varchar(255), import_original_short_code varchar(255), domain_id ${ref} references ${t('domains')}(id), author_api_key_id ${ref}, title varchar(512), title_was_auto_resolved ${bool} not null default false, crawlable ${bool} not null default false, forward_query ${bool} not null default true, unique (short_code, domain_id));
create table ${t('tags')} (${id}, name varchar(255) not null unique);
create table ${t('short_urls_in_tags')} (short_url_id ${ref} not null references ${t('short_urls')}(id) on delete cascade, tag_id ${ref} not null references ${t('tags')}(id) on delete cascade, primary key (short_url_id, tag_id));
create table ${t('visit_locations')} (${id}, country_code varchar(255), country_name varchar(255), region_name varchar(255), city_name varchar(255), timezone varchar(255), lat ${real} not null, lon ${real} not null, is_empty ${bool} not null default false);
create table ${t('visits')} (${id}, referer varchar(1024), ${date} ${time} not null, remote_addr varchar(256), user_agent varchar(512), short_url_id ${ref} references ${t('short_urls')}(id) on delete cascade, visit_location_id ${ref} references ${t('visit_locations')}(id) on delete set null, visited_url varchar(2048), type varchar(255) not null, potential_bot ${bool} not null default false, redirect_url varchar(2048))`
}

export function shlinkRows(kind: ScratchKind, t: (name: string) => string, p: string, host: string): string {
  const date = kind === 'mysql' ? '`date`' : 'date'
  const visit = (shortUrl: number | null, referer: string | null, at: string, agent: string, location: number | null, type = 'valid_short_url') =>
    `(${shortUrl ?? 'null'}, ${referer === null ? 'null' : `'${referer}'`}, '${at}', '${agent}', ${location ?? 'null'}, '${type}')`
  return `insert into ${t('domains')} (authority) values ('${host}');
insert into ${t('short_urls')} (original_url, short_code, date_created, domain_id, title) values
 ('https://example.com/one', '${p}one', '2022-01-02 03:04:05', null, 'One'),
 ('https://example.com/two', '${p}two', '2022-02-03 04:05:06', 1, null),
 ('javascript:alert(1)', '${p}evil', '2022-02-03 04:05:06', null, 'Evil');
insert into ${t('tags')} (name) values ('spring'), ('print');
insert into ${t('short_urls_in_tags')} (short_url_id, tag_id) values (1, 1), (1, 2), (2, 1);
insert into ${t('visit_locations')} (country_code, country_name, lat, lon) values ('US', 'United States', 0, 0), ('DE', 'Germany', 0, 0);
insert into ${t('visits')} (short_url_id, referer, ${date}, user_agent, visit_location_id, type) values
 ${visit(1, 'https://www.google.com/search?q=x', '2023-01-01 10:00:00', CHROME, 1)},
 ${visit(1, null, '2023-01-01 11:00:00', IPHONE, 2)},
 ${visit(1, 'https://t.co/abc', '2023-01-02 12:00:00', CHROME, null)},
 ${visit(2, '', '2023-01-03 09:00:00', IPHONE, 1)},
 ${visit(null, null, '2023-01-03 09:00:00', CHROME, 1, 'base_url')},
 ${visit(3, null, '2023-01-04 09:00:00', CHROME, 1)}`
}
