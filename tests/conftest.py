"""Shared fixtures: the repo's sample inbox, the project's shared data folder, a Prefect
server and a processed sample project for the session; the property-based tests' profiles."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from projects import BROKEN, SAMPLE_INPUTS, SampleRun, gazette, inbox
from services import Postgres

from pipeline.config import Settings

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "raw" / "samples"
SHARED = REPO.parent / "shared"

# The benchmark scripts' scoring functions are used by the tests that guard their figures.
sys.path.insert(0, str(REPO / "bench"))

# Property-based tests: a few hundred examples in the inner loop, ten thousand in CI
# (.ci/run sets HYPOTHESIS_PROFILE=ci). No deadline: a loaded machine is no failure.
for _name, _examples in (("dev", 300), ("ci", 10_000)):
    hypothesis_settings.register_profile(
        _name, max_examples=_examples, deadline=None,
        suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def shared() -> Path:
    """``../shared`` (seeds, gold, corpora); tests that need it skip without it."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} not present")
    return SHARED


@pytest.fixture(scope="session")
def prefect_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A real Prefect server on a free loopback port, its files in a temporary home,
    started once for the session: the environment that points a `gazette` process at it.

    `gazette run` without it starts a temporary server of its own (about 8 s); the tests
    that check that embedded default do without this fixture.
    """
    from flows.server import LocalServer, free_port

    home = tmp_path_factory.mktemp("prefect-home")
    env = {"PREFECT_HOME": str(home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "DO_NOT_TRACK": "1"}
    with pytest.MonkeyPatch.context() as patch:
        for key, value in env.items():
            patch.setenv(key, value)
        server = LocalServer(free_port(), home / "server.log").start()
    # only the API: a `gazette` process keeps its project's own Prefect home (its task
    # cache and results), as it would against a resident server
    yield {"PREFECT_API_URL": server.api_url, "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "DO_NOT_TRACK": "1"}
    server.stop()


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> SampleRun:
    """The sample project (:data:`projects.SAMPLE_INPUTS` and a broken PDF) after one
    `gazette run` as from a fresh clone: no server given, so it starts its own.

    Built once for the session, by whichever test worker (``make test`` runs two) needs
    it first; the end-to-end tests read it or work on a copy.
    """
    if worker_id == "master":  # one process: its own temporary folder
        return build_sample_project(tmp_path_factory.mktemp("sample-project"))
    shared_tmp = tmp_path_factory.getbasetemp().parent  # the same for every worker
    with FileLock(shared_tmp / "sample-project.lock"):
        return SampleRun.load(shared_tmp / "sample-project") or build_sample_project(
            shared_tmp / "sample-project")


def build_sample_project(root: Path) -> SampleRun:
    inbox(root, SAMPLE_INPUTS, SAMPLES)
    (root / "raw" / BROKEN).write_text("<html>not a PDF</html>", encoding="utf-8")
    return SampleRun(root, gazette("run", cwd=root)).save()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster of the session's own (see :class:`services.Postgres`)."""
    server = Postgres().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings for an empty project folder under tmp_path."""
    return Settings.for_root(tmp_path)


def words_recovered(truth: str, text: str) -> float:
    """Share of the words of ``truth`` found, in order, in ``text`` (an OCR accuracy)."""
    import difflib

    expected, got = truth.split(), text.split()
    matcher = difflib.SequenceMatcher(None, expected, got, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(expected)
