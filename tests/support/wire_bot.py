"""``python -m bot`` with the wire tests' extension added: the same entry point and start-up, one more cog."""

import bot.client
from bot.cli import main

if __name__ == "__main__":
    discover = bot.client.discover_extensions
    bot.client.discover_extensions = lambda: [*discover(), "tests.support.wire_cog"]
    raise SystemExit(main())
