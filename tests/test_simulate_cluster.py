"""Fault tolerance: on a local multi-node Ray cluster (``ray.cluster_utils.Cluster``), a worker
node is killed mid-batch; the batch still completes with every game exactly once and the same
rows as a serial run (R12).

The cluster runs in a subprocess (this file run as a script), so that it never meets the local
Ray that other tests share in this process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from antipolix import Results, Rules, simulate
from antipolix.agents import GreedyAgent
from antipolix.runner.rows import DETERMINISTIC_COLUMNS

GAMES = 60
SEED = 13
RULES = Rules(shape=(4, 8, 8), players=2, max_turns=100)


def run_on_cluster(out: Path) -> dict[str, object]:
    """A head with no CPU and two 1-CPU worker nodes; kill one after the first chunks."""
    import ray
    from ray.cluster_utils import Cluster

    node_args = {"num_cpus": 1, "object_store_memory": 80 * 1024**2}
    cluster = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 0, "object_store_memory": 80 * 1024**2},
    )
    nodes = [cluster.add_node(**node_args) for _ in range(2)]
    cluster.wait_for_nodes()
    killed_at: list[int] = []

    def progress(done: int, total: int) -> None:
        # called after a chunk is written; its two successors are already running, one on each
        # worker node (the head has no CPU), so killing a node kills a running task
        if done >= 8 and not killed_at:
            cluster.remove_node(nodes[1], allow_graceful=False)
            killed_at.append(done)

    try:
        results = simulate(
            RULES,
            [GreedyAgent(), GreedyAgent()],
            GAMES,
            SEED,
            workers=2,
            address=cluster.address,
            out=out,
            chunk_size=4,
            progress=progress,
        )
    finally:
        if ray.is_initialized():
            ray.shutdown()
        cluster.shutdown()
    assert results.run is not None
    return {"killed_at": killed_at, "played": results.run.games_played}


@pytest.mark.slow
def test_a_worker_node_dies_mid_batch_and_every_game_is_played_once(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, __file__, str(out)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["killed_at"] and report["killed_at"][0] < GAMES, report
    assert report["played"] == GAMES
    results = Results.open(out)
    assert results.to_pandas(["game"])["game"].tolist() == list(range(GAMES))
    serial = simulate(RULES, [GreedyAgent(), GreedyAgent()], GAMES, SEED, workers=0)
    assert results.read(DETERMINISTIC_COLUMNS).equals(serial.read(DETERMINISTIC_COLUMNS))


if __name__ == "__main__":
    print(json.dumps(run_on_cluster(Path(sys.argv[1]))))
