"""The bot's process, the children it starts, its files and memory. May import nothing else of the bot.

Children that end with the bot (lifeline), hostile input run in a limited child (sandbox), files replaced in
one step (atomic) and freed memory given back to the system (memory). Standard library only, so that a
sandboxed child starts light.
"""

from bot.runtime.atomic import remove_leftovers, store_atomically
from bot.runtime.lifeline import BACKGROUND_NICE, die_with_parent, end_children, end_pool, start_worker, watch_parent
from bot.runtime.memory import return_freed_memory
from bot.runtime.sandbox import Limits as SandboxLimits
from bot.runtime.sandbox import SandboxError, run_limited, run_limited_sync

__all__ = [
    "BACKGROUND_NICE",
    "SandboxError",
    "SandboxLimits",
    "die_with_parent",
    "end_children",
    "end_pool",
    "remove_leftovers",
    "return_freed_memory",
    "run_limited",
    "run_limited_sync",
    "start_worker",
    "store_atomically",
    "watch_parent",
]
