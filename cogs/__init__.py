"""Discord extensions, one a feature; each module ends in ``async def setup(bot)``."""
