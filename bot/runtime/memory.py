"""Memory the process frees goes back to the system: large blocks are mapped on their own, not kept in the heap.

glibc's allocator raises its threshold for mapping a block on its own to the size of the largest block freed
(up to 32 MB), so after the first card image (a 2 MB download, a 16 MB decoded PNG) every later one is carved
from the heap, and a heap with one small object left near its top is never trimmed: the process keeps the
high-water mark of every burst of images for good. Fixing the threshold at glibc's own default keeps large
blocks mapped, and unmapped as soon as they are freed. Elsewhere than glibc this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
MMAP_THRESHOLD_BYTES = 128 * 1024  # glibc's default, kept from moving up


def return_freed_memory() -> bool:
    """Fix the allocator's mapping threshold (see the module's docstring); whether it could be done here."""
    name = ctypes.util.find_library("c")
    if not name:
        return False
    try:
        libc = ctypes.CDLL(name)
        return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES))
    except (OSError, AttributeError):  # not glibc: its own allocator, its own ways
        log.debug("No mallopt here; the allocator keeps its own thresholds")
        return False
