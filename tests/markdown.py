"""Fenced code blocks of a Markdown file as a renderer finds them (CommonMark's rules for
backtick fences), for the tests that run or read the README's examples: a fence opens with three
or more backticks and an optional info string (``python``), and only a fence of at least as many
backticks with nothing after it closes it, so a stray fence turns the prose after it into code
up to the next bare one (a regular expression for ```` ```python ...``` ```` would not see it)."""

from __future__ import annotations

import re
from typing import NamedTuple

FENCE = re.compile(r"^ {0,3}(`{3,})\s*([^`]*?)\s*$")


class Block(NamedTuple):
    info: str  # the word after the opening fence ("python", "bash", or "")
    text: str  # the lines inside, each with its newline
    line: int  # the opening fence's line, from 1


def code_blocks(markdown: str) -> list[Block]:
    """The fenced code blocks of ``markdown`` in order; one left open runs to the end."""
    blocks: list[Block] = []
    opened: tuple[str, str, int] | None = None  # (its backticks, info, line)
    inside: list[str] = []
    for number, line in enumerate(markdown.splitlines(keepends=True), start=1):
        fence = FENCE.match(line.rstrip("\n"))
        if opened is None:
            if fence:
                opened, inside = (fence[1], fence[2].split(" ")[0], number), []
        elif fence and not fence[2] and len(fence[1]) >= len(opened[0]):
            blocks.append(Block(opened[1], "".join(inside), opened[2]))
            opened = None
        else:
            inside.append(line)
    if opened is not None:
        blocks.append(Block(opened[1], "".join(inside), opened[2]))
    return blocks


LINK = re.compile(r"\]\(([^)\s]+)\)")


def link_targets(markdown: str) -> list[str]:
    """The targets of the inline links (``[text](target)``) outside code blocks and code
    spans, in order."""
    code: set[int] = set()  # the lines of the blocks, their fences included
    for block in code_blocks(markdown):
        code.update(range(block.line, block.line + block.text.count("\n") + 2))
    prose = [
        re.sub(r"`[^`]*`", "", line)
        for number, line in enumerate(markdown.splitlines(), start=1)
        if number not in code
    ]
    return LINK.findall("\n".join(prose))


def python_blocks(markdown: str) -> list[str]:
    """The ``python`` blocks' text, in order."""
    return [b.text for b in code_blocks(markdown) if b.info == "python"]
