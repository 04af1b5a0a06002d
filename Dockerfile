# Cyclebot: docker build -t cyclebot . && docker run -e DISCORD_TOKEN=... -v cyclebot-data:/data cyclebot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BOT_DATA_DIR=/data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install . \
    && useradd --create-home --uid 10001 --user-group cyclebot \
    && mkdir -p /data \
    && chown cyclebot:cyclebot /data

USER cyclebot
VOLUME ["/data"]

HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
