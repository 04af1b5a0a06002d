"""Discord extensions, one a feature. May import the core (`bot`).

Each extension ends in ``async def setup(bot)``; a feature that grows is a package with private ``_modules``.
The shared pieces beside them (``_ui``, ``_symbols``, ``_permissions``, ``_admission``, ``_gate``, ``_pagers``) are
for every feature.
"""
