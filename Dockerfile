# One image for every Wayfinder service; the command picks the service (`wayfinder start --services …`).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
# patches/: fixes to installed packages that npm ci's postinstall applies (patch-package).
COPY patches ./patches
RUN npm ci --no-audit --no-fund --omit=optional || npm ci --no-audit --no-fund
COPY . .
ENV NODE_ENV=production
ENTRYPOINT ["node", "bin/wayfinder.js"]
CMD ["start", "--mode", "embedded"]
