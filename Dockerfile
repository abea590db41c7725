# One image for both Cashier processes (docker-compose.yml picks the command):
# `node engine/main.ts` (gRPC engine) or `node edge/main.ts` (HTTP edge).
# Node 24 runs the TypeScript sources directly (type stripping), so there is
# no build step; gen/ is committed protoc-gen-es output.
FROM node:24-slim

ENV NODE_ENV=production \
    CASHIER_DATA_DIR=/app/.data \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false

WORKDIR /app

# Dependencies first, so that a source change reuses this layer. The npm
# package `node` (which brings Node 24 to machines that have an older one) is
# dropped: this image's own Node 24 runs Cashier.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && rm -rf node_modules/node node_modules/.bin/node && npm cache clean --force

COPY engine ./engine
COPY edge ./edge
COPY gen ./gen
COPY types ./types

# Run as the image's unprivileged `node` user; it owns only the data dir
# (dev files such as demo-merchant.json), not the code.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node

EXPOSE 8080 50051
CMD ["node", "engine/main.ts"]
