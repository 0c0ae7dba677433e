"""The terminal table of ``play``, written once for every game: a person against bots.

Each turn of the person shows the board (that seat's view), the legal moves
numbered, and a prompt. A move is typed as its number or as its text, matched
without regard to case or spacing against ``str(action)`` of the legal actions
(a unique beginning will do: ``deploy oda to province 2``, ``end``); a game may
understand more words of its own (:meth:`Hooks.parse_move`), read when the line
begins no listed move. ``board``,
``help`` and ``quit`` work in every game; a bad line gets one line of
explanation and the prompt again, never a traceback.

>>> from ordonnance.core.table import match_move, list_moves
>>> moves = ["play LS to Antioch", "play LS to Cyprus", "claim Cyprus", "pass"]
>>> match_move("3", moves), match_move("PLAY ls to cyp", moves), match_move("cl", moves)
('claim Cyprus', 'play LS to Cyprus', 'claim Cyprus')
>>> match_move("play", moves)
"'play' could be 2 moves (1) play LS to Antioch, 2) play LS to Cyprus): type more of it, or its number"
>>> print("\\n".join(list_moves(moves, 80)))
  play LS to 1) Antioch  2) Cyprus
  3) claim Cyprus
  4) pass
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ordonnance.core.terminal import fit

if TYPE_CHECKING:
    from ordonnance.core.cli import Hooks

__all__ = ["Quit", "Table", "match_move", "list_moves"]


class Quit(Exception):
    """The person left the game (``quit``, or the end of the input)."""


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def match_move(text: str, actions: Sequence[Any], hooks: Hooks | None = None, word: str = "move") -> Any:
    """The action ``text`` names among ``actions`` (its number from 1, its text or a unique
    beginning of it, or the words of ``hooks``'s game), else a string saying why it names none
    (``word`` is what the game calls a move)."""
    words = text.split()
    count = len(actions)
    a = "an" if word[:1] in "aeiou" else "a"
    if not words:
        return f"type {a} {word} number from 1 to {count}, {a} {word} as listed, board, help or quit"
    if len(words) == 1 and re.fullmatch(r"[+-]?[0-9]+", words[0]):  # ASCII digits, one sign at most
        if len(words[0]) <= 6 and 1 <= int(words[0]) <= count:
            return actions[int(words[0]) - 1]
        return f"there is no {word} {words[0]:.12}: choose a number from 1 to {count}"
    wanted = _words(text)
    texts = [_words(str(action)) for action in actions]
    exact = [i for i, known in enumerate(texts) if known == wanted]
    starting = [i for i, known in enumerate(texts) if known.startswith(wanted)]
    if len(exact) == 1 or (not exact and len(starting) == 1):
        return actions[(exact or starting)[0]]
    shown = exact or starting
    if shown:
        listed = ", ".join(f"{i + 1}) {actions[i]}" for i in shown[:2]) + (", ..." if len(shown) > 2 else "")
        return f"{' '.join(words)!r:.60} could be {len(shown)} {word}s ({listed}): type more of it, or its number"
    own = None if hooks is None else hooks.parse_move(text, actions)
    if own is not None:
        return own
    return f"not understood: {' '.join(words)!r:.60}; type {a} {word} number from 1 to {count}, {a} {word} as listed, help or quit"


#: The longest rest of a move that a line of moves sharing their first words holds.
_SHORT = 30


def _groups(texts: Sequence[str]) -> list[tuple[str, list[tuple[int, str]]]]:
    """Runs of consecutive moves that share their first words, each move's rest short:
    ``(shared words, [(number, rest), ...])``; a move alone is ``("", [(number, text)])``."""
    words = [text.split(" ") for text in texts]
    groups: list[tuple[str, list[tuple[int, str]]]] = []
    i = 0
    while i < len(texts):
        shared = 0
        if i + 1 < len(texts):
            most = min(len(words[i]), len(words[i + 1])) - 1  # every move keeps a word of its own
            while shared < most and words[i][shared] == words[i + 1][shared]:
                shared += 1
        end = i + 1
        while shared and end < len(texts) and len(words[end]) > shared and words[end][:shared] == words[i][:shared]:
            end += 1
        rests = [" ".join(w[shared:]) for w in words[i:end]]
        if shared and all(len(rest) <= _SHORT for rest in rests):
            groups.append((" ".join(words[i][:shared]), list(zip(range(i + 1, end + 1), rests))))
            i = end
        else:
            groups.append(("", [(i + 1, texts[i])]))
            i += 1
    return groups


def list_moves(texts: Sequence[str], width: int | None) -> list[str]:
    """The moves, numbered from 1; consecutive moves that share their first words share a line
    (``play LS to 1) Antioch  2) Cyprus``), their rests lined up. Lines fit ``width``."""
    groups = _groups(texts)
    pad = max((len(head) for head, items in groups if head), default=0)
    lines: list[tuple[str, int]] = []  # each line, and where its moves start
    for head, items in groups:
        if not head:
            number, text = items[0]
            lines.append((f"  {number}) {text}", 6))
            continue
        rests = "  ".join(f"{number}) {rest}" for number, rest in items)
        line = f"  {head:<{pad}} {rests}"
        if width is not None and len(line) > width:  # the columns cost a line: not aligned
            line = f"  {head} {rests}"
        lines.append((line, len(line) - len(rests)))
    half = -(-len(lines) // 2)
    column = max((len(line) for line, _ in lines), default=0) + 3
    if width is not None and len(lines) > 3 and 2 * column <= width + 3:  # short lines: two columns, read down
        rights = [line for line, _ in lines[half:]] + [""]
        return [f"{left:<{column}}{right}".rstrip() for (left, _), right in zip(lines[:half], rights)]
    return [fit(line, width, indent) for line, indent in lines]


class Table:
    """One game of ``play``: the person in seat ``you`` against ``bots`` (by seat), over text streams."""

    def __init__(
        self,
        hooks: Hooks,
        game: Any,
        you: int,
        bots: Mapping[int, Any],
        titles: Mapping[int, str],
        stdin: TextIO,
        stdout: TextIO,
        width: int | None,
    ) -> None:
        self.hooks, self.game, self.you, self.bots = hooks, game, you, bots
        self.stdin, self.stdout, self.width = stdin, stdout, width
        self.names = ["you" if p == you else f"{titles[p]} (p{p})" for p in range(game.rules.players)]
        """How the narration names each seat."""
        isatty = getattr(stdin, "isatty", None)
        self.echo = not (callable(isatty) and isatty())
        """Whether typed lines are echoed (input from a file or a pipe, so that the output reads as a session)."""

    def say(self, text: str = "") -> None:
        """Print a line (or several) to the person."""
        print(text, file=self.stdout)

    def ask(self, prompt: str) -> str:
        """A line typed at ``prompt``; :class:`Quit` at the end of the input."""
        print(prompt, end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            self.say()
            raise Quit
        if self.echo:
            self.say(line.rstrip("\n"))
        return line

    def help(self) -> str:
        """The rules in brief, then what can be typed at the prompt."""
        word = self.hooks.move_word
        article = "an" if word[:1] in "aeiou" else "a"
        extra = "".join(f"\n  {name:<14}{text}" for name, text in self.hooks.table_words.items())
        return (
            f"{self.hooks.rules_help}\n\nWhat you can type:\n"
            f"  3             the {word} with that number\n"
            f"  {article + ' ' + word:<14}as listed, in any case; a unique beginning will do\n"
            f"  board         show the table again, in full{extra}\n"
            f"  help          this text\n"
            f"  quit          leave the game (Ctrl-D too)"
        )

    def person(self) -> Any:
        """The person's action, asked until a legal one is typed."""
        game, hooks = self.game, self.hooks
        actions = list(game.legal_actions())
        listing = "\n".join([f"your {hooks.move_word}s:", *list_moves([hooks.describe(game, a) for a in actions], self.width)])
        self.say()
        self.say(hooks.board(game.view(self.you), self.width))
        self.say(listing)
        while True:
            text = self.ask(f"your {hooks.move_word} (1-{len(actions)}, board, help, quit)> ").strip()
            word = text.lower()
            if word in ("quit", "exit", "q"):
                raise Quit
            if word in ("help", "h", "?"):
                self.say(self.help())
            elif word in ("board", "b"):
                self.say(hooks.details(game, self.you, self.width))
                self.say(listing)
            elif word in hooks.table_words:
                self.say(hooks.table_word(word, game, self.you))
            else:
                move = match_move(text, actions, hooks, hooks.move_word)
                if isinstance(move, str):
                    self.say(fit(move, self.width))
                else:
                    return move

    def play(self) -> None:
        """Play to the end, narrating every move; then the final board and who won.

        A bot's moves in a row that are told as ``who: move`` go on one line (Shinobi's three
        orders of a turn), so that the board and the prompt stay on one screen."""
        game, hooks = self.game, self.hooks
        pending: list[str] = []  # the moves of the bot last to act, not told yet
        while not game.is_over:
            seat = game.current_player
            if seat == self.you:
                self.tell(pending)
                action = self.person()
            else:
                action = self.bots[seat].choose(game.view(seat))
            before = hooks.before(game, action)
            game.apply(action)
            first, *rest = hooks.narrate(game, seat, action, self.names, self.you, before)
            who = f"{self.names[seat]}: "
            if seat != self.you and not rest and first.startswith(who):
                if pending and not pending[0].startswith(who):
                    self.tell(pending)
                pending.append(first if not pending else first[len(who) :])
                continue
            self.tell(pending)
            self.say(fit(first, self.width, 4))
            for line in rest:
                self.say(fit(f"  {line}", self.width, 4))
        self.tell(pending)
        self.say()
        self.say(hooks.board(game, self.width))  # over: nothing is hidden any more but the hands, which boards never show
        for line in hooks.outcome(game, self.you, self.names):
            self.say(fit(line, self.width))

    def tell(self, moves: list[str]) -> None:
        """Say one bot's moves in a row on one line (``who: first; second``), and forget them."""
        if moves:
            self.say(fit("; ".join(moves), self.width, 4))
            moves.clear()
