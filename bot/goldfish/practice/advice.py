"""The coach's sentences: a recommendation (``coach``) or a review (``review``) said so that a player understands
it. Plain text with card names as the game knows them; a shell escapes it for its medium (Discord markdown) before
showing it.
"""

from __future__ import annotations

from bot.goldfish.engine import Action, Game, IllegalAction, move_words
from bot.goldfish.practice.coach import HORIZON, Advice, Figures
from bot.goldfish.practice.policy import is_payoff, lands_out
from bot.goldfish.practice.review import DeckFigures, Moment, PlayerGame, Review
from bot.text import plural

# Why a recommendation was not measured, by its basis.
UNMEASURED = {
    "timeout": "I couldn't measure the moves in time, so this is the policy's move, not a measured one.",
    "only": "It is the only move you have.",
    "unmeasured": "This is the policy's choice: choices of several cards are not played out.",
}
# How a finished game ended, by its result (a game left unfinished "Stopped").
RESULTS = {"won": "Won", "lost": "Lost"}
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int) -> str:
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def _counted(n: int, word: str) -> str:
    """``two lands``, ``one land``: the count spelled out, the noun agreeing with it through plural()."""
    return plural(n, word).replace(f"{n:,}", _count(n), 1)


def _names(game: Game, iids: tuple[int, ...]) -> str:
    return ", ".join(game.iid_names.get(i, f"#{i}") for i in iids)


def move_text(game: Game, action: Action) -> str:
    """The move in a few words: "Cycle Bloated Toad", "Play Forest", "Go on to the next turn"."""
    if action.kind == "next" and game.phase == "main":
        return "Go on to the next turn"
    name = game.iid_names.get(action.iid, f"#{action.iid}") if action.iid is not None else ""
    found = game.iid_names.get(action.find, "?") if action.find is not None else ""
    cards = _names(game, action.bottom if action.kind == "keep" else action.cards)
    return move_words(action, "advice", card=name, found=found, cards=cards)


def _tapping(game: Game, action: Action) -> str:
    """The lands the move would tap, as the engine chooses them: "tapping Forest ×2" (empty when none)."""
    twin = game.clone()
    try:
        twin.apply(action)
    except IllegalAction:
        return ""
    untapped = {p.iid for p in game.zones.battlefield if not p.tapped}
    lands: dict[str, int] = {}
    for permanent in twin.zones.battlefield:
        if permanent.tapped and permanent.iid in untapped:
            name = twin.permanent_name(permanent)
            lands[name] = lands.get(name, 0) + 1
    if not lands:
        return ""
    parts = [name if n == 1 else f"{name} ×{n}" for name, n in lands.items()]
    return "tapping " + (" and ".join(parts) if len(parts) <= 2 else ", ".join(parts[:-1]) + " and " + parts[-1])


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _why(game: Game, action: Action) -> str:
    """What the position says for the move, before any figures."""
    name = game.iid_names.get(action.iid, "") if action.iid is not None else ""
    if action.kind == "cycle":
        option = next(
            (o for o in game.cycle_options() if o.iid == action.iid and o.ability_index == action.ability), None
        )
        paid = _tapping(game, action)
        reasons = []
        if game.player.land_played and game.phase == "main":
            reasons.append("your land drop is used")
        elif game.phase != "main":
            reasons.append("mana left untapped is wasted when your turn begins")
        if not game.is_land(name) and not is_payoff(name):
            reasons.append(f"{name} is no use in hand on turn {max(game.turn, 1)}")
        elif game.is_land(name):
            reasons.append(f"you have {_counted(lands_out(game), 'land')} out and another land in hand")
        how = f", {paid}" if paid else ""
        label = f" ({option.label})" if option else ""
        return f"{move_text(game, action)}{label}{how}" + (": " + " and ".join(reasons) if reasons else "")
    if action.kind == "play":
        facts = game.book[name]
        colours = "".join(sorted(facts.colours)) or "colourless mana"
        state = "enters tapped" if facts.enters_tapped else "enters untapped"
        return f"{move_text(game, action)}: it {state} and makes {colours}, and turn {game.turn}'s land drop is unused"
    if action.kind == "cast":
        if is_payoff(name):
            return f"{move_text(game, action)}: on the battlefield it turns every later cycle into progress"
        return f"{move_text(game, action)}: a threat on the battlefield attacks from next turn"
    if action.kind == "keep":
        lands = sum(1 for c in game.zones.hand if game.is_land(c.name))
        return f"{move_text(game, action)}: {_counted(lands, 'land')} in {_counted(len(game.zones.hand), 'card')}"
    if action.kind == "mulligan":
        lands = sum(1 for c in game.zones.hand if game.is_land(c.name))
        return f"Mulligan: {_counted(lands, 'land')} in {_counted(len(game.zones.hand), 'card')}"
    if action.kind == "next":
        return f"{move_text(game, action)}: nothing else you can do now gets the kill sooner"
    return move_text(game, action)


def kill_text(figures: Figures) -> str:
    if not figures.kill_share:
        return f"no kill by turn {HORIZON}"
    return f"kill on turn {figures.mean_kill_turn:.1f} on average"


def figure_line(game: Game, figures: Figures) -> str:
    """One candidate's figures: "Cycle Bloated Toad: kill on turn 8.4 on average, next two land drops 94%"."""
    return (
        f"{move_text(game, figures.action)}: {kill_text(figures)}, "
        f"next two land drops {figures.land_share:.0%} ({plural(figures.rollouts, 'rollout')})"
    )


def hint_sentence(game: Game, advice: Advice) -> str:
    """The recommendation and why, in one or two sentences."""
    why = _why(game, advice.best)
    if advice.basis in UNMEASURED:
        return f"{why}. {UNMEASURED[advice.basis]}"
    best = advice.figures_of(advice.best)
    if advice.basis == "rollouts":
        policy_figures = advice.figures_of(advice.policy_move)
        than = f" than {_lower_first(move_text(game, advice.policy_move))}" if policy_figures else ""
        return (
            f"{why}. Played out {plural(best.rollouts, 'time')}, it gets the kill {advice.gain:.1f} turns sooner{than} "
            f"({kill_text(best)})."
        )
    return (
        f"{why}. Played out {plural(best.rollouts, 'time')} each, no other move got the kill measurably sooner "
        f"({kill_text(best)})."
    )


# ------------------------------------------------------------------ the review


def player_lines(player: PlayerGame) -> list[str]:
    head = f"{RESULTS.get(player.result or '', 'Stopped')} on turn {player.turn}"
    lines = [f"{head}, {plural(player.cards_cycled, 'card')} cycled, {plural(player.mulligans, 'mulligan')}."]
    if not player.replayed:
        lines.append("This game was saved by an older version, so its turns can't be replayed.")
        return lines
    if player.missed_drops:
        turns = ", ".join(str(t) for t in player.missed_drops)
        lines.append(f"Land drops missed with a land in hand: {len(player.missed_drops)} (turn {turns}).")
    else:
        lines.append("No land drop missed with a land in hand.")
    if player.unused_mana:
        per_turn = " ".join(str(n) for n in player.unused_mana)
        lines.append(f"Mana left unused per turn: {per_turn} (total {sum(player.unused_mana)}).")
    return lines


def deck_lines(player: PlayerGame, deck: DeckFigures) -> list[str]:
    median = f"turn {deck.median_kill_turn}" if deck.median_kill_turn else f"after turn {deck.turns}"
    lines = [f"The deck in {deck.games:,} simulated games (seed {deck.seed}): median win {median}."]
    if deck.percentile is not None:
        lines.append(f"Your win was faster than {deck.percentile:.0%} of them (ties count half).")
    else:
        lines.append(f"By turn {player.turn} the simulated deck had won {deck.killed_by_then:.0%} of its games.")
    return lines


def moment_line(game: Game, moment: Moment) -> str:
    return (
        f"Turn {moment.turn}: you chose {_lower_first(move_text(game, moment.played))}; "
        f"{_lower_first(move_text(game, moment.better))} would have won {moment.gain:.1f} turns sooner on average "
        f"({moment.better_mean:.1f} against {moment.played_mean:.1f}, {plural(moment.rollouts, 'rollout')} each)."
    )


def review_lines(game: Game, review: Review) -> dict[str, list[str]]:
    """The review in sections: "Your game", "The deck", "Moments" (a section is left out until measured)."""
    sections = {"Your game": player_lines(review.player)}
    if review.deck is not None:
        sections["The deck"] = deck_lines(review.player, review.deck)
    if review.moments is not None:
        sections["Moments"] = [moment_line(game, m) for m in review.moments] or [
            "No decision where the coach measured a clearly faster move."
        ]
    return sections
