# Flywheel's container image. Its build and start steps are the very scripts CI runs (no Docker engine runs in CI):
# `npm ci && npm run build`, then scripts/pack-production.sh, which lays out the built server and web app with
# production dependencies only, and which scripts/check-production.sh packs and starts on every CI run.
#
#   docker build -t flywheel .
#   docker run -p 3000:3000 -v flywheel-data:/data flywheel          # embedded database, demo mode
#   docker compose up                                                   # PostgreSQL, one api, two workers (compose.yml)

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && npm run build && bash scripts/pack-production.sh /opt/flywheel

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /opt/flywheel
COPY --from=build /opt/flywheel ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Live, not ready: a database blip makes a process unready (no traffic) but must not get it restarted.
HEALTHCHECK --interval=30s --timeout=5s --start-period=300s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# The server itself (no supervisor: the container runtime restarts it, `restart: unless-stopped` in compose.yml).
CMD ["node", "apps/server/dist/main.js"]
