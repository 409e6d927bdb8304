# syntax=docker/dockerfile:1
# Multi-stage: build with dev dependencies, prune them, run as a non-root user.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 ships prebuilt (Node-API) for x64 and arm64 and is compiled elsewhere; node-gyp runs
# either way, so the toolchain is here, in this stage only.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY test ./test
COPY bench ./bench
# Only the service (dist/src) and the CLI's data source (dist/ormconfig.js) are shipped.
RUN npm run build \
 && rm -rf dist/test dist/bench dist/.tsbuildinfo \
 && find dist -name '*.map' -delete \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# The runtime settings that keep an instance within its memory budget and fast (heap cap, nursery size,
# one malloc arena, a fixed mmap threshold) are defined in src/runtime-settings.ts, which explains them;
# V8 and glibc read them only when a process starts, so they are set here (a test checks they match), as
# the npm start scripts set them: the image's one process is the service.
ENV NODE_OPTIONS="--max-old-space-size=192 --max-semi-space-size=32" \
    MALLOC_ARENA_MAX=1 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Migrations run at start-up (under a lock on MySQL), then the service listens; SIGTERM drains it.
# The same command the cluster test starts (test/support/service.ts START_COMMAND).
CMD ["node", "dist/src/main.js"]
