"""The README's pictures of the demo game, made again from what the demo draws today:
``docs/demo.png`` (the demo's own picture: its decisive turn), ``docs/demo-boards.png`` (the
same turn as three boards around the board of the chief taken) and ``docs/replay-page.png``
(the demo's replay page in Chromium at that turn, its story on the timeline). Prints the
figures the README quotes (turns, the decisive turn, the page's size).

    .venv/bin/python experiments/docs_pictures.py            # writes docs/*.png
    .venv/bin/python experiments/docs_pictures.py --out /tmp/pictures
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from antipolix.cli import Parser, run_script
from antipolix.cli.common import make_folder

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
SIZE = {"width": 1280, "height": 800}


def boards_around(cell: tuple[int, int, int] | None, boards: int) -> tuple[int, ...]:
    """Three boards along z centred on the board of ``cell`` (the chief taken), within the
    ``boards`` of the universe."""
    z = 0 if cell is None else cell[0]
    first = min(max(z - 1, 0), max(boards - 3, 0))
    return tuple(range(first, min(first + 3, boards)))


def page_shot(page: Path, png: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
        )
        tab = browser.new_page(viewport=SIZE, device_scale_factor=1)
        tab.goto(page.resolve().as_uri())
        tab.wait_for_function("document.documentElement.dataset.ready === '1'", timeout=60_000)
        tab.evaluate("apx.frameNow()")
        tab.screenshot(path=str(png))
        browser.close()


def main() -> None:
    p = Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=ROOT / "docs", help="folder (default docs/)")
    args = p.parse_args()
    make_folder(args.out)
    from antipolix.cli import main as antipolix
    from antipolix.replay import load_replay
    from antipolix.story import story
    from viz import save_png

    with tempfile.TemporaryDirectory(prefix="apx-docs-") as tmp:
        work = Path(tmp)
        if antipolix(["demo", "--out", str(work), "--batch", "0"]) != 0:
            sys.exit("the demo failed")
        replay = load_replay(work / "demo.apx.json.gz")
        told = story(replay)
        turn = told.decisive.turn
        shutil.copyfile(work / "demo.png", args.out / "demo.png")
        boards = boards_around(told.decisive.cell, replay.rules.shape[0])
        save_png(replay, turn, args.out / "demo-boards.png", mode="boards", axis="z",
                 boards=boards)  # fmt: skip
        page_shot(work / "demo.html", args.out / "replay-page.png")
        size = (work / "demo.html").stat().st_size
    print(f"the demo game: {told.result}; decisive turn {turn} of {replay.last_turn}")
    print(f"boards picture: --turn {turn} --mode boards --axis z --boards "
          f"{','.join(map(str, boards))}")  # fmt: skip
    print(f"the demo's replay page: {size / 1000:.0f} KB ({size / 1024:.0f} KiB)")
    names = ("demo.png", "demo-boards.png", "replay-page.png")
    print(f"wrote {', '.join(str(args.out / n) for n in names)}")


if __name__ == "__main__":
    run_script(main)
