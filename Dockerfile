# Cyclebot: docker build -t cyclebot . && docker run -e DISCORD_TOKEN=... -v cyclebot-data:/data cyclebot
# Two stages: the first installs the locked dependencies, then the bot, into /app/.venv; the second is a clean
# slim Python with that folder alone (no uv, no pip cache, no build files) and an unprivileged user.

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_NO_CACHE=1 \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/app/.venv
RUN pip install "uv==0.13.9"
WORKDIR /src
# The dependencies first, in a layer of their own: a change to the code rebuilds only the layers below.
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --no-dev --no-install-project
COPY README.md LICENSE ./
COPY bot ./bot
COPY cogs ./cogs
RUN uv sync --frozen --no-dev --no-editable

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    BOT_DATA_DIR=/data \
    PATH=/app/.venv/bin:$PATH
RUN useradd --create-home --uid 10001 --user-group cyclebot \
    && mkdir -p /data \
    && chown cyclebot:cyclebot /data
COPY --from=build /app/.venv /app/.venv

USER cyclebot
WORKDIR /home/cyclebot
VOLUME ["/data"]

HEALTHCHECK --interval=60s --timeout=10s --start-period=90s --retries=3 \
    CMD ["cyclebot", "health"]

CMD ["cyclebot", "run"]
