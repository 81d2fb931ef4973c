"""The rules in words: every rule option with its section and what it changes, and the tables a
designer reads (costs, strengths, move fields, trait costs, combat, time, every option with its
value), marking what differs from the 1995 rules. ``antipolix rules`` prints :func:`rules_text`
for any ``--rules FILE`` / ``--rule KEY=VALUE``; the rules themselves, in the project's own
words, are ``docs/rules/antipolix.md`` (sections R1–R12, as the code cites them), which a test
keeps in step with :data:`OPTIONS`.

>>> print(rules_text(Rules(players=2, shape=(4, 8, 8))).splitlines()[2])
R1 world: 4 × 8 × 8 cells* (4 boards of 8 × 8; a cell is (z, y, x), written z2 y5 x4)
"""

from __future__ import annotations

from antipolix.codec import flat_options, value_text
from antipolix.pieces import PieceType, Trait
from antipolix.rules import Rules

DOC = "docs/rules/antipolix.md"  # the rules in the project's own words
MARK = "*"  # beside a value that differs from the 1995 rules

# Every option of Rules by its --rule key: (section, what it changes)
OPTIONS: dict[str, tuple[str, str]] = {
    "shape": ("R1", "the universe: P boards of N × N cells (P,N,N)"),
    "players": ("R3", "seats at the table, 2 to 10"),
    "budget": ("R3", "points each player spends on its army (none: from credits_per_100)"),
    "credits_per_100": ("R3", "budget = floor(credits_per_100 × P·N·N / 100 / players)"),
    "zones": ("R3", "each player places in its own home zone (false: anywhere)"),
    **{
        f"{kind}.{attr}": ("R2", f"{kind}: {what}")
        for kind in ("army", "hovercraft", "fortress")
        for attr, what in (
            ("cost", "points it costs"),
            ("strength", "its strength, in attack and defence"),
            ("move", "its move field, in cells (0: it never moves)"),
        )
    },
    "none.cost": ("R2", "extra cost of a piece without a trait"),
    "invisible.cost": ("R2", "extra cost of the invisible trait (R6)"),
    "teleporter.cost": ("R2", "extra cost of the teleporter trait (R5)"),
    "chief.cost": ("R2", "extra cost of the chief (each army has exactly one)"),
    "teleport_field": ("R5", "teleporters this close (cells) link into a network"),
    "teleport_network": ("R5", "whose teleporters a piece may use: own, or all"),
    "timers": ("R7", "the zero-sum clocks: a player whose timer runs out is out"),
    "time_credit": ("R7", "seconds each timer starts with, at most"),
    "time_total": ("R7", "seconds shared by all at the start: a timer gets time_total / players"),
    "think_times": ("R7", "agent: as each agent reports; drawn: the engine draws them"),
    "p_destroy": ("R8", "chance a successful attack destroys its target"),
    "p_teleport": ("R8", "chance it teleports the target to a random cell"),
    "p_convert": ("R8", "chance it converts the target to the attacker"),
    "defence_counts": ("R8", "who defends a target: its owner's neighbours, or all neighbours"),
    "max_turns": ("R10", "the game is a draw after this many turns"),
}


def options(rules: Rules) -> dict[str, object]:
    """Every option of ``rules`` by its ``--rule`` key, ``budget`` included (``None`` when
    derived), in the order of :data:`OPTIONS`."""
    flat = flat_options(rules)
    return {key: rules.budget if key == "budget" else flat[key] for key in OPTIONS}


def rules_text(rules: Rules, base: Rules | None = None) -> str:
    """The rules as tables a designer reads (see the module docstring); a value that differs
    from ``base`` (by default the 1995 rules for the same number of players) is marked
    :data:`MARK`. One function of the rules, so that another game prints its own."""
    base = base if base is not None else Rules(players=rules.players)
    now, then = options(rules), options(base)

    def mark(*keys: str) -> str:
        return MARK if any(now[k] != then[k] for k in keys) else ""

    p, n, _ = rules.shape
    most = rules.room
    budget_keys = ("budget", "credits_per_100", "shape")
    how = (
        "set by the budget option"
        if rules.budget is not None
        else f"credits_per_100 = {rules.credits_per_100:g}: floor({rules.credits_per_100:g} × "
        f"{p * n * n} / 100 / {rules.players})"
    )
    lines = [
        f"AntipoliX rules (the rules in words: {DOC}); {MARK} marks what differs from the 1995 "
        "rules",
        "",
        f"R1 world: {p} × {n} × {n} cells{mark('shape')} ({p} boards of {n} × {n}; a cell is "
        "(z, y, x), written z2 y5 x4)",
        f"R3 setup: {rules.players} players{mark('players')}, each army bought within "
        f"{rules.army_budget} points{mark(*budget_keys)} ({how}), placed "
        + (f"in its home zone of {most:,} cells" if rules.zones else "anywhere (zones off)")
        + mark("zones"),
        *_beyond_room(rules),
        "",
        *_table(
            "R2 pieces",
            ["cost", "strength", "move field"],
            [
                (
                    kind.name.lower(),
                    [
                        f"{getattr(rules.piece_types[kind], a)}{mark(f'{kind.name.lower()}.{a}')}"
                        for a in ("cost", "strength", "move")
                    ],
                )
                for kind in PieceType
            ],
            notes={"fortress": "never moves or attacks; defends"}
            if rules.piece_types.fortress.move == 0
            else {},
        ),
        "",
        *_table(
            "R2 traits",
            ["extra cost"],
            [
                (t.name.lower(), [f"{rules.trait_costs.cost(t)}{mark(f'{t.name.lower()}.cost')}"])
                for t in Trait
            ],
            notes={
                "invisible": "opponents never see it; it cannot be attacked (R6)",
                "teleporter": f"links with teleporters within {rules.teleport_field} cells (R5)",
                "chief": "one an army; losing it loses the game and the army (R8)",
            },
        ),
        "",
        *_table(
            "R2 piece costs (type + trait)",
            [t.name.lower() for t in Trait],
            [
                (
                    kind.name.lower(),
                    [
                        f"{rules.piece_cost(kind, t)}"
                        f"{MARK if rules.piece_cost(kind, t) != base.piece_cost(kind, t) else ''}"
                        for t in Trait
                    ],
                )
                for kind in PieceType
            ],
        ),
        "",
        f"R5 teleporters: linked within {rules.teleport_field} cells"
        f"{mark('teleport_field')}, a piece uses "
        + ("its own player's networks" if rules.teleport_network == "own" else "every network")
        + mark("teleport_network"),
        "R7 time: "
        + (
            f"timers on, each starts with {rules.initial_timer:g} s (min({rules.time_credit:g}, "
            f"{rules.time_total:g} / {rules.players}))"
            if rules.timers
            else "timers off"
        )
        + mark("timers", "time_credit", "time_total")
        + "; think times "
        + ("as each agent reports them" if rules.think_times == "agent" else "drawn by the engine")
        + mark("think_times"),
        f"R8 combat: a successful attack destroys {_pct(rules.p_destroy)}, teleports "
        f"{_pct(rules.p_teleport)}, converts {_pct(rules.p_convert)}"
        f"{mark('p_destroy', 'p_teleport', 'p_convert')}; a target is defended by "
        + ("its owner's pieces" if rules.defence_counts == "owner" else "every piece")
        + f" within 1 cell{mark('defence_counts')}",
        f"R10 end: a draw after {rules.max_turns} turns{mark('max_turns')}",
        "",
        "options (--rule KEY=VALUE; a --rules FILE holds the same in TOML):",
        *_option_lines(now, then),
    ]
    return "\n".join(line.rstrip() for line in lines)


def _beyond_room(rules: Rules) -> list[str]:
    """A line when the budget buys more pieces than an army can place (R3): how many, and that
    the built-in agents buy no more than fit (a person's or a bot's larger army is refused)."""
    chief = min(rules.piece_cost(k, Trait.CHIEF) for k in PieceType)
    cheapest = min(rules.piece_cost(k, t) for k in PieceType for t in Trait if t is not Trait.CHIEF)
    most = rules.room
    pieces = None if cheapest == 0 else 1 + (rules.army_budget - chief) // cheapest
    if pieces is not None and pieces <= most:
        return []
    bought = "any number of" if pieces is None else f"up to {pieces:,}"
    return [
        f"   the budget buys {bought} pieces, more than the {most:,} an army can place: the "
        "built-in agents buy no more than fit; a larger army is refused"
    ]


def _pct(p: float) -> str:
    return f"{100 * p:g} %"


def _table(
    title: str,
    columns: list[str],
    rows: list[tuple[str, list[str]]],
    notes: dict[str, str] | None = None,
) -> list[str]:
    """A small text table: ``title`` over the row names, one column each."""
    first = max(len(title), *(len(name) + 2 for name, _ in rows))
    widths = [max(len(c), *(len(r[1][i]) + 1 for r in rows)) for i, c in enumerate(columns)]
    head = "".join(f"  {c:>{w}}" for c, w in zip(columns, widths, strict=True))
    out = [title.ljust(first) + head]
    for name, cells in rows:
        text = f"  {name}".ljust(first)
        for cell, w in zip(cells, widths, strict=True):
            text += "  " + _align(cell, w)
        note = (notes or {}).get(name)
        out.append(text + (f"   {note}" if note else ""))
    return out


def _align(cell: str, width: int) -> str:
    """Right-aligned on the digits, a mark hanging after them."""
    marked = cell.endswith(MARK)
    digits = cell[:-1] if marked else cell
    return f"{digits:>{width - 1}}{MARK if marked else ' '}"


def _option_lines(now: dict[str, object], then: dict[str, object]) -> list[str]:
    width = max(len(k) for k in now)
    shown = {k: value_text(v) for k, v in now.items()}
    vwidth = max(len(v) for v in shown.values()) + 1
    out = []
    for key, (section, what) in OPTIONS.items():
        differs = now[key] != then[key]
        value = shown[key] + (MARK if differs else "")
        was = f" (1995: {value_text(then[key])})" if differs else ""
        out.append(f"  {key:<{width}}  {value:<{vwidth}}  {section:<3}  {what}{was}")
    return out
