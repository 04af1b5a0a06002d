"""Which entries hold which word stems, as one integer bit mask per stem.

The entries holding a set of stems are then found with a few integer operations, and taking the
lowest bits first yields the shortest (most focused) entries first.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

# Candidates are drawn from tiers of the question's most weighty stems; tiers below this share are skipped.
MAX_TIER_STEMS, MIN_TIER_WEIGHT = 6, 0.3


class StemMasks:
    def __init__(self, doc_stems: list[frozenset[str]], lengths: list[int]) -> None:
        """Each word stem as a bit mask over the entries, shortest entry first, so that the entries holding a
        set of stems are found with a few integer operations and the most focused (shortest) come first."""
        order = sorted(range(len(lengths)), key=lambda row: lengths[row])
        self._row_at = array("l", order)
        position = self._place = array("l", bytes(array("l").itemsize * len(order)))
        for place, row in enumerate(order):
            position[row] = place
        size = len(order) // 8 + 1
        bitmaps: dict[str, bytearray] = {}
        for row, stems in enumerate(doc_stems):
            place = position[row]
            for stem_ in stems:
                bitmap = bitmaps.get(stem_)
                if bitmap is None:
                    bitmap = bitmaps[stem_] = bytearray(size)
                bitmap[place >> 3] |= 1 << (place & 7)
        self._masks = {stem_: int.from_bytes(bitmap, "little") for stem_, bitmap in bitmaps.items()}
        average = sum(lengths) / max(1, len(lengths)) or 1.0
        # BM25's length normalisation (k1 = 1.2, b = 0.75) for a word that occurs once.
        self.norm = [2.2 / (1 + 1.2 * (0.25 + 0.75 * length / average)) for length in lengths]

    def holding(self, stems: Iterable[str], rows: Iterable[int]) -> dict[str, frozenset[int]]:
        """Of ``rows``, the ones holding each of ``stems`` (every stem asked for is a key)."""
        bits = bytearray(len(self._place) // 8 + 1)
        for row in rows:
            place = self._place[row]
            bits[place >> 3] |= 1 << (place & 7)
        within = int.from_bytes(bits, "little")
        out: dict[str, frozenset[int]] = {}
        for stem_ in stems:
            mask = self._masks.get(stem_, 0) & within
            found = []
            while mask:
                lowest = mask & -mask
                found.append(self._row_at[lowest.bit_length() - 1])
                mask ^= lowest
            out[stem_] = frozenset(found)
        return out

    def candidates(self, weighted: list[tuple[str, str, float]], limit: int) -> list[int]:
        """Entries holding the most of the question's stems (by weight), shortest first within a tier."""
        parts = sorted(
            ((weight, self._masks.get(s, 0) | self._masks.get(alternative, 0)) for s, alternative, weight in weighted),
            key=lambda part: -part[0],
        )
        parts = [part for part in parts if part[1]][:MAX_TIER_STEMS]
        if not parts:
            return []
        count = len(parts)
        tier_weight = [0.0] * (1 << count)
        for subset in range(1, 1 << count):
            lowest = (subset & -subset).bit_length() - 1
            tier_weight[subset] = tier_weight[subset & (subset - 1)] + parts[lowest][0]
        tiers = sorted(range(1, 1 << count), key=tier_weight.__getitem__, reverse=True)
        rows: list[int] = []
        for subset in tiers:
            if tier_weight[subset] < MIN_TIER_WEIGHT:
                break
            mask = -1
            for i in range(count):
                mask = mask & parts[i][1] if subset >> i & 1 else mask & ~parts[i][1]
            while mask > 0 and len(rows) < limit:
                lowest = mask & -mask
                rows.append(self._row_at[lowest.bit_length() - 1])
                mask ^= lowest
            if len(rows) >= limit:
                break
        return rows
