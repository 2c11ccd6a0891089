# The NDCG teaching app for a class, started by the same make targets as on a laptop.
#   docker build -t ndcg-teaching-app .
#   docker run --rm -p 8501:8501 ndcg-teaching-app                # students open http://HOST:8501
#   docker run --rm -e PORT=8080 -p 8080:8080 ndcg-teaching-app   # another port
FROM python:3.11-slim-bookworm

# PORT is read by `make run` and by the health check. Streamlit listens on all IPv4 addresses (where
# `docker run -p` forwards to), not on its default "::"; its file watcher only matters while editing.
ENV PORT=8501 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    STREAMLIT_SERVER_FILE_WATCHER_TYPE=none

# System packages: make, and Debian's Chromium with fonts (Latin, and CJK for the Chinese pages),
# which kaleido drives to draw the chart exports (PNG, SVG). Not pinned (DL3008): an exact Debian version leaves the mirror at the next point
# release. The app runs as the unprivileged user "app" (10001), which owns /app and /app/data (Class
# mode's SQLite folder: a volume mounted there stays writable).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends make chromium fonts-dejavu-core fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 app \
    && useradd --create-home --uid 10001 --gid 10001 --shell /usr/sbin/nologin app \
    && install -d -o app -g app /app /app/data

WORKDIR /app
USER 10001:10001
COPY --chown=10001:10001 . .

# Creates /app/.venv and installs the app (not the test extra) into it, at the versions pinned in
# constraints.txt (copied with the rest: `make install` runs pip with -c constraints.txt); `make run`
# then finds the install stamp and starts Streamlit at once.
RUN make install

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8501') + '/_stcore/health', timeout=4)"]
CMD ["make", "run"]
