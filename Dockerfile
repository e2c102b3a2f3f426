# syntax=docker/dockerfile:1
# Linkwell's image: the package `npm pack` makes, installed the way CI installs it and serving from
# /data. The build stage packs the tarball and the runtime stage installs it with the commands of
# scripts/check-package.mjs, which `npm run check:package` runs in CI (our CI has no Docker
# daemon, so that check is what tests these steps; test/deploy/deploy-files.unit.test.ts holds the
# two equal). `docker compose up -d` builds and runs it with PostgreSQL and Redis (compose.yaml).

# Node 20 as in package.json's engines, and the npm CI runs: `--allow-scripts`, which decides that
# only better-sqlite3's install script runs, is an npm 11 setting that Node 20's own npm 10 lacks.
FROM node:20-bookworm-slim AS base
ARG NPM_VERSION=11.19.1
RUN npm install --global --no-audit --no-fund "npm@${NPM_VERSION}" && rm -rf /root/.npm

FROM base AS build
# better-sqlite3's install script takes a prebuilt binary and compiles one when none downloads;
# this stage is thrown away, so its compilers cost the image nothing.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The lockfile first: the dependencies' layer is rebuilt only when they change, not on every edit.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json README.md ./
COPY scripts ./scripts
COPY src ./src
COPY web ./web
COPY packages ./packages
# As scripts/check-package.mjs packs: the lockfile as npm-shrinkwrap.json, so the install below
# takes the versions CI tested.
RUN npm run build \
    && npm run pack:lock \
    && mkdir /pack \
    && npm pack --ignore-scripts --pack-destination /pack

FROM base AS runtime
# The tarball comes in through a mount, so it stays out of the image's layers. Where no prebuilt
# better-sqlite3 binary downloads (a firewall, a platform without one), its install script
# compiles it: the compilers are installed and removed in this one layer, so none is left behind.
#
# Ports 80 and 443 as a user other than root: the node binary gets the one capability to bind
# ports below 1024 (setcap). The image then serves them under any runtime (docker run, Compose,
# Kubernetes) without a sysctl beside it. Node still reads NODE_EXTRA_CA_CERTS and NODE_OPTIONS
# with that capability alone (it ignores them under any other). A container started with
# `cap_drop: [ALL]` must add NET_BIND_SERVICE back, or node will not start.
RUN --mount=type=bind,from=build,source=/pack,target=/tmp/pack \
    apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ libcap2-bin \
    && npm install --global --prefix /usr/local --no-audit --no-fund --allow-scripts=better-sqlite3 /tmp/pack/linkwell-*.tgz \
    && setcap cap_net_bind_service=+ep "$(readlink -f "$(command -v node)")" \
    && apt-get purge -y --auto-remove python3 make g++ libcap2-bin \
    && rm -rf /var/lib/apt/lists/* /root/.npm /root/.cache

# A fixed id, so a folder mounted at /data from the host can be given to it (chown 10001:10001).
RUN groupadd --system --gid 10001 linkwell \
    && useradd --system --uid 10001 --gid linkwell --home-dir /data --no-create-home --shell /usr/sbin/nologin linkwell \
    && mkdir -p /data/uploads \
    && chown -R linkwell:linkwell /data

# Everything the server keeps on disk lives in the volume; with PostgreSQL (compose.yaml) it holds
# only what the server writes beside the database.
ENV DATABASE_URL=file:/data/linkwell.db \
    UPLOAD_DIR=/data/uploads
VOLUME /data
WORKDIR /data
USER linkwell

# HTTP_PORT, HTTPS_PORT and PORT's defaults: 80 and 443 when Linkwell holds its own certificates,
# 3000 for plain HTTP behind a proxy.
EXPOSE 80 443 3000
# The slim image has no curl: Node's fetch asks /healthz on PORT, which always serves plain HTTP.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]
# `linkwell serve` passes SIGTERM on to the server, which finishes its requests and exits 0.
CMD ["linkwell", "serve"]
