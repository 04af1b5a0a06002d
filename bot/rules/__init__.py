"""Comprehensive Rules: parsing, lookup and search, download. Framework-free (no discord import)."""
