"""A tuning study: CMA-ES over the planner's weights by self-play, in a resumable folder.

The folder holds:

- ``_tuning.json``: the study (settings, seed, rules, the opponent, the start point, the engine
  version). A folder is used again only for the same study, or the same study with more
  generations (it grows); anything else, another kind of study included, is refused before any
  game is played, and nothing is written into it.
- ``generations.jsonl``: one line per finished generation: its mean and step size, the
  candidates CMA-ES asked (in [0, 1] units, :class:`~antipolix.tuning.space.Space`), each one's
  games and score, the mean's games, the opponents. Rewritten whole (atomically) after each
  generation, so an interruption loses at most the generation being played.
- ``weights.json``, ``progress.csv``, ``progress.png``, ``report.md``: the result
  (:mod:`antipolix.tuning.report`).

Resuming never unpickles anything: CMA-ES is rebuilt from the settings and replayed from the log
(ask, check that the candidates equal the logged ones to the bit, tell the logged scores), which
restores its state exactly, then goes on. Its normal deviates come from a generator of our own,
``Generator(PCG64(SeedSequence(seed, spawn_key=(0,))))``, passed to cma as its ``randn`` option:
the same as cma's ``seed`` option, without touching numpy's global random state.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.agents import PlannerAgent, TunedAgent
from antipolix.agents.planner import DEFAULT_WEIGHTS, WEIGHT_NAMES
from antipolix.agents.tuned import tuned_weights
from antipolix.blas import replay_hint
from antipolix.checks import is_int, is_plain_number
from antipolix.codec import rules_to_dict
from antipolix.files import (
    check_creatable,
    compare_studies,
    locked_folder,
    read_json,
    read_json_lines,
    refuse_other_files,
    write_atomically,
)
from antipolix.rules import Rules
from antipolix.tuning import cmaes
from antipolix.tuning.evaluate import (
    DRAW_VALUE,
    GAMES_BRANCH,
    Batch,
    Pool,
    Tally,
    check_draw,
    check_rules,
    checked_seed,
    default_rules,
    schedule,
    tally,
)
from antipolix.tuning.space import FloatArray, Space, TuningError
from antipolix.version import __version__

STUDY_FILE = "_tuning.json"
LOG_FILE = "generations.jsonl"
STUDY_FORMAT = "antipolix-tuning"
STUDY_VERSION = 1
CMA_BRANCH = 0  # CMA-ES's normal deviates: SeedSequence(seed, spawn_key=(0,))
OUTPUTS = ("weights.json", "progress.csv", "progress.png", "report.md")
OWN_FILES = {STUDY_FILE, LOG_FILE, *OUTPUTS}
UNCOMPARED = ("cma",)  # recorded, not part of what makes two studies the same

Progress = Callable[[int, int], None]


@dataclass
class TuningResult:
    """A finished (or grown) tuning study.

    ``weights``: the planner's full weight vector by name, the tuned ones at the final
    distribution mean of CMA-ES (its estimate of the optimum, after the last generation's
    update) and the others at their start values; ``tuned``: the tuned ones alone. ``log``: one
    record per generation (``generations.jsonl``)."""

    out: Path
    settings: dict[str, Any]
    log: list[dict[str, Any]]
    weights: dict[str, float]
    tuned: dict[str, float]
    played: int = 0  # generations played by this call (the others were read from the log)
    seconds: float = 0.0
    sigma: float = math.nan  # CMA-ES's step size after the last generation

    @property
    def space(self) -> Space:
        return Space.of(self.settings["weights"])

    @property
    def draw(self) -> float:
        """What a level meeting scored."""
        return float(self.settings["draw"])

    def table(self) -> Any:
        """One row per generation (pandas): the mean's score against the planner and in all,
        the candidates' best and median scores, the step size, the mean's weights."""
        import pandas as pd

        space = self.space
        rows = []
        for line in self.log:
            scores = np.array(line["scores"], dtype=np.float64)
            mean = Tally(_record(line["mean_record"]), _record(line["mean_planner"]), self.draw)
            w, d, lost = line["mean_planner"]
            rows.append(
                {
                    "generation": line["generation"],
                    "sigma": line["sigma"],
                    "mean_vs_planner": mean.planner_score,
                    "mean_planner_games": w + d + lost,
                    "mean_score": mean.score,
                    "best_score": float(scores.max()),
                    "median_score": float(np.median(scores)),
                    "opponents": len(line["opponents"]),
                    **space.unscale(line["mean"]),
                }
            )
        return pd.DataFrame(rows)


@dataclass
class Study:
    """A study's settings, folder and log, and the CMA-ES that its log replays."""

    out: Path
    space: Space
    settings: dict[str, Any]
    rules: Rules
    base: FloatArray  # the full weight vector the untuned weights keep
    x0: FloatArray
    log: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def make(
        cls,
        out: Path,
        generations: object,
        population: object,
        games: object,
        seed: object,
        weights: Sequence[str] | str | None,
        sigma0: object,
        hall_of_fame: object,
        rules: Rules | None,
        draw: object = DRAW_VALUE,
        mirror: object = False,
    ) -> Study:
        """Check every argument (:class:`TuningError`) and describe the study."""
        n_generations = _count(generations, "generations", 1)
        n_games = _count(games, "games", 2)
        rules = check_rules(default_rules() if rules is None else rules)
        if n_games % rules.players:
            raise TuningError(
                f"games must be even (each seed is played from both seats), got {n_games}"
                if rules.players == 2
                else f"games must be a multiple of {rules.players} (each seed is played from "
                f"every seat), got {n_games}"
            )
        hall = _count(hall_of_fame, "hall_of_fame", 0)
        draw_value = check_draw(draw)
        if not isinstance(mirror, bool):
            raise TuningError(f"mirror must be True or False, got {mirror!r}")
        if population is not None:
            _count(population, "population", 2)
        sigma = check_sigma0(sigma0)
        seed = checked_seed(seed)
        space = Space.of(weights)
        base = np.array(tuned_weights(rules.players), dtype=np.float64)
        x0 = space.scale(base)
        outside = [n for n, x in zip(space.names, x0, strict=True) if not 0 <= x <= 1]
        if outside:
            raise TuningError(
                f"the committed weight {outside[0]} lies outside its search range; the search "
                "starts there"
            )
        lam = _popsize(space.dims) if population is None else _count(population, "population", 2)
        import cma

        settings: dict[str, Any] = {
            "format": STUDY_FORMAT,
            "version": STUDY_VERSION,
            "engine": __version__,
            "cma": cma.__version__,
            "seed": seed,
            "generations": n_generations,
            "population": lam,
            "games": n_games,
            "sigma0": sigma,
            "hall_of_fame": hall,
            "draw": draw_value,
            "mirror": mirror,
            "weights": list(space.names),
            "start": space.unscale(x0),
            "base": dict(zip(WEIGHT_NAMES, (float(v) for v in base), strict=True)),
            "opponent": _json(PlannerAgent().spec()),
            "planner_weights": dict(zip(WEIGHT_NAMES, map(float, DEFAULT_WEIGHTS), strict=True)),
            "candidate_army": _json(TunedAgent().army_policy.spec()),
            "rules": rules_to_dict(rules),
            "game_seed": f"SeedSequence(seed, spawn_key=({GAMES_BRANCH}, generation, pair))",
            "cma_seed": f"SeedSequence(seed, spawn_key=({CMA_BRANCH},))",
        }
        return cls(out, space, _json(settings), rules, base, x0)

    # -- the folder --------------------------------------------------------------------------

    def check_folder(self) -> None:
        """Refuse, writing nothing, a folder that cannot hold this study; read its log."""
        path = self.out
        if path.exists() and not path.is_dir():
            raise TuningError(f"cannot use {path} for a tuning study: it is not a folder")
        if not path.exists():
            check_creatable(path, TuningError)
            return
        study = path / STUDY_FILE
        if study.exists():
            self._compare(_read_json(study))
            self.log = read_log(path / LOG_FILE, self.space.dims, self.settings["population"])
            if len(self.log) > self.settings["generations"]:
                raise TuningError(
                    f"{path} holds {len(self.log)} generations of this study; ask for "
                    f"{len(self.log)} or more (a study grows, it never shrinks)"
                )
        else:
            _refuse_foreign(path)
        if not os.access(path, os.W_OK | os.X_OK):
            raise TuningError(f"cannot write to {path}: permission denied")

    def reread(self) -> bool:
        """Read the log again (the folder now locked); True if it changed."""
        log = read_log(self.out / LOG_FILE, self.space.dims, self.settings["population"])
        changed = log != self.log
        self.log = log
        return changed

    def _compare(self, old: dict[str, Any]) -> None:
        if old.get("format") != STUDY_FORMAT:
            raise TuningError(f"{self.out / STUDY_FILE} is not a tuning study description")
        if old.get("version") != STUDY_VERSION:
            raise TuningError(
                f"{self.out} holds a tuning study of format version {old.get('version')!r}; "
                f"this antipolix reads version {STUDY_VERSION}"
            )
        old = {"draw": DRAW_VALUE, "mirror": False, **old}  # written before these were settings
        was = {k: v for k, v in old.items() if k not in UNCOMPARED}
        now = {k: v for k, v in self.settings.items() if k not in UNCOMPARED}
        change = compare_studies(was, now, grows="generations")
        if isinstance(change, tuple):
            raise TuningError(
                f"{self.out} holds a different tuning study ({'; '.join(change)}); use another "
                "folder, or delete it to start again"
            )

    @contextlib.contextmanager
    def opened(self) -> Any:
        """The folder, created, locked against a second run, with ``_tuning.json`` written."""
        lock = locked_folder(self.out, TuningError, "a tuning study")
        try:
            self._write(STUDY_FILE, json.dumps(self.settings, indent=1) + "\n")
            yield self
        finally:
            lock.close()

    def _write(self, name: str, text: str) -> None:
        try:
            write_atomically(self.out / name, text.encode())
        except OSError as exc:
            raise TuningError(f"cannot write {self.out / name}: {exc}") from None

    # -- CMA-ES ------------------------------------------------------------------------------

    def new_es(self) -> Any:
        """CMA-ES at the start point, with its own generator of normal deviates."""
        settings = self.settings
        return cmaes.new_es(
            self.x0.tolist(),
            settings["sigma0"],
            settings["population"],
            settings["seed"],
            (CMA_BRANCH,),
        )

    def replay(self) -> Any:
        """CMA-ES after the logged generations: each asked again, checked against the log to
        the bit, and told the logged scores."""
        es = self.new_es()
        for line in self.log:
            g = line["generation"]
            mean = _mean(es)
            asked = _ask(es)
            if not (_same(mean, line["mean"]) and _same(asked, line["candidates"])):
                raise TuningError(
                    f"{self.out / LOG_FILE} does not replay: generation {g}'s candidates differ "
                    f"from the ones CMA-ES asks again ({replay_hint()}); use another folder, or "
                    "delete it to start again"
                )
            _tell(es, asked, line["scores"])
        return es

    def run(self, es: Any, pool: Pool, report: Progress | None, bar: Any) -> int:
        """Play the generations the log does not hold yet; how many were played."""
        settings = self.settings
        total_gens, games = settings["generations"], settings["games"]
        per_generation = (settings["population"] + 1) * games
        total = total_gens * per_generation
        done = len(self.log) * per_generation
        if report is not None:
            report(done, total)
        if bar is not None and self.log and len(self.log) < total_gens:
            bar.note(f"antipolix: resuming at generation {len(self.log)} of {total_gens}")

        def tick(n: int) -> None:
            nonlocal done
            done += n
            if report is not None:
                report(done, total)

        played = 0
        for g in range(len(self.log), total_gens):
            if bar is not None:
                bar.describe(f"generation {g + 1}/{total_gens}")
            self.log.append(self.generation(es, g, pool, tick))
            self._write(LOG_FILE, "".join(json.dumps(x) + "\n" for x in self.log))
            played += 1
        return played

    def generation(
        self, es: Any, g: int, pool: Pool, tick: Callable[[int], None]
    ) -> dict[str, Any]:
        """Play generation ``g``: ask, score every candidate and the mean, tell; its log line."""
        k = self.settings["hall_of_fame"]
        hall = list(range(max(0, g - k), g))  # generations whose means are opponents
        sigma = float(es.sigma)
        mean = _mean(es)
        asked = _ask(es)
        entries = [*asked, mean]
        batch = Batch(
            self.rules,
            self.settings["seed"],
            tuple(tuple(map(float, self.space.full(self.base, x))) for x in entries),
            (
                None,
                *(tuple(map(float, self.space.full(self.base, self.log[h]["mean"]))) for h in hall),
            ),
        )
        matches = schedule(
            self.settings["games"],
            g,
            len(entries),
            len(hall),
            self.rules.players,
            self.settings["mirror"],
        )
        outcomes = pool.play(batch, matches, tick)
        tallies = tally(matches, outcomes, len(entries), self.settings["draw"])
        scores = [t.score for t in tallies[:-1]]
        _tell(es, asked, scores)
        return {
            "generation": g,
            "sigma": sigma,
            "mean": mean,
            "candidates": asked,
            "scores": scores,
            "records": [list(t.record) for t in tallies[:-1]],
            "planner": [list(t.planner) for t in tallies[:-1]],
            "mean_record": list(tallies[-1].record),
            "mean_planner": list(tallies[-1].planner),
            "best": int(np.argmax(scores)),
            "opponents": [
                "planner",
                *(f"mean of generation {h}" for h in hall),
                *(["itself"] if self.settings["mirror"] else []),
            ],
        }

    def result(self, es: Any, played: int, seconds: float) -> TuningResult:
        final = _mean(es)
        tuned = self.space.unscale(final)
        full = self.space.full(self.base, final)
        return TuningResult(
            out=self.out,
            settings=self.settings,
            log=self.log,
            weights=dict(zip(WEIGHT_NAMES, (float(v) for v in full), strict=True)),
            tuned=tuned,
            played=played,
            seconds=seconds,
            sigma=float(es.sigma),
        )


# -- CMA-ES, by lists of plain floats --------------------------------------------------------------


def check_sigma0(sigma0: object) -> float:
    """CMA-ES's initial step size, a number above 0 and at most 0.5 of each weight's range
    (:class:`TuningError` otherwise)."""
    if not is_plain_number(sigma0) or not 0 < sigma0 <= 0.5:
        raise TuningError(f"sigma0 must be a number above 0 and at most 0.5, got {sigma0!r}")
    return float(sigma0)


_popsize = cmaes.popsize
_mean = cmaes.mean
_ask = cmaes.ask
_tell = cmaes.tell
_same = cmaes.same


def _record(values: Sequence[int]) -> tuple[int, int, int]:
    w, d, lost = (int(v) for v in values)
    return w, d, lost


# -- files ---------------------------------------------------------------------------------------


def read_log(path: Path, dims: int, population: int) -> list[dict[str, Any]]:
    """The generations of a log (none when it does not exist); a line that is not one of this
    study's is refused with its number."""
    out = []
    for n, line in enumerate(read_json_lines(path, TuningError), 1):
        try:
            ok = (
                isinstance(line, dict)
                and line.get("generation") == n - 1
                and np.shape(line["candidates"]) == (population, dims)
                and np.shape(line["mean"]) == (dims,)
                and np.shape(line["scores"]) == (population,)
            )
        except (KeyError, ValueError, TypeError):
            ok = False
        if not ok:
            raise TuningError(
                f"{path}, line {n}, is not generation {n - 1} of this study; use another "
                "folder, or delete it to start again"
            )
        out.append(line)
    return out


def _read_json(path: Path) -> dict[str, Any]:
    data = read_json(path, TuningError)
    if not isinstance(data, dict):
        raise TuningError(f"{path} is not a tuning study description")
    return data


def _refuse_foreign(path: Path) -> None:
    """A folder without ``_tuning.json`` is used only if it is empty."""
    kinds = {
        "_study.json": "a simulate study",
        "study.json": "a balancing study",
    }
    for name, kind in kinds.items():
        if (path / name).exists():
            raise TuningError(f"{path} holds {kind} ({name}); a tuning study needs its own folder")
    refuse_other_files(path, TuningError, "tuning study")


def _count(value: object, what: str, minimum: int) -> int:
    if not is_int(value) or value < minimum:
        raise TuningError(f"{what} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _json(data: Any) -> Any:
    """``data`` as JSON reads it back (what a folder's description is compared with)."""
    return json.loads(json.dumps(data, default=str))


__all__ = ["LOG_FILE", "STUDY_FILE", "Progress", "Study", "TuningResult", "read_log"]
