"""Settings: one object from gazette.toml, checked, and the keys that decide what is redone."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline import config
from pipeline.config import READING_SETTINGS, Settings
from pipeline.errors import GazetteError
from pipeline.run.stages import align_params, repair_config


def test_gazette_toml_sets_every_stage(tmp_path: Path):
    (tmp_path / "gazette.toml").write_text(
        'min_ocr_confidence = 60\nlanguages = ["en", "pt"]\n'
        'repair_disabled = ["fix_ocr_words"]\n[align]\nsize_exponent = 0.5\nband = 10\n',
        encoding="utf-8")
    settings = Settings.for_root(tmp_path)
    assert settings.min_ocr_confidence == 60.0 and settings.languages == ("en", "pt")
    assert repair_config(settings).fix_ocr_words is False
    assert repair_config(settings).ftfy is True
    params = align_params(settings)
    assert (params.size_exponent, params.band, params.max_merge) == (0.5, 10, 5)
    assert settings.changed() == {
        "languages": ("en", "pt"), "min_ocr_confidence": 60.0,
        "repair_disabled": ("fix_ocr_words",), "align": (("band", 10), ("size_exponent", 0.5))}
    # a run's overrides win over the file
    assert Settings.for_root(tmp_path, min_ocr_confidence=50.0).min_ocr_confidence == 50.0


@pytest.mark.parametrize(("text", "message"), [
    ("ocr_dpy = 300", "unknown setting 'ocr_dpy', did you mean 'ocr_dpi'?"),
    ("raw = 'elsewhere'", "unknown setting 'raw'"),
    ("ocr_dpi = '300'", "ocr_dpi = '300' is not a whole number"),
    ("flag_below = true", "flag_below = True is not a number"),
    ("max_cid_share = -1", "is not zero or more"),
    ("languages = ['en', 'de']", "is not a list of en, pt, sv, hi"),
    ('repair_disabled = ["fix_everything"]', "is not a list of repair rules"),
    ("[align]\nsizes = 2", "is not a table of aligner knobs"),
    ("ocr_dpi = ", "is not valid TOML"),
])
def test_bad_settings_are_named(tmp_path: Path, text: str, message: str):
    (tmp_path / "gazette.toml").write_text(text + "\n", encoding="utf-8")
    with pytest.raises(GazetteError, match=message.replace("(", r"\(").replace("?", r"\?")
                       .replace("[", r"\[")):
        Settings.for_root(tmp_path)


def test_reading_key_follows_reading_settings_only(settings: Settings):
    for name in READING_SETTINGS:
        value = getattr(settings, name)
        if isinstance(value, tuple):
            other: object = value[:-1]
        elif isinstance(value, str):
            other = value + "+swe"
        else:
            other = value * 2 + 1
        assert replace(settings, **{name: other}).reading_key() != settings.reading_key(), name
    for changed in (replace(settings, repair_disabled=("ftfy",)),
                    replace(settings, align=(("band", 4),)), replace(settings, flag_below=0.6)):
        assert changed.reading_key() == settings.reading_key()
        assert changed.output_key() != settings.output_key()
    assert replace(settings, page_workers=1).output_key() == settings.output_key()


def test_reading_tasks_asking_for_the_key_at_once_parse_the_sources_once(
        monkeypatch: pytest.MonkeyPatch):
    # Python 3.11's ast.parse fails in threads at once ("AST constructor recursion depth
    # mismatch"): the first callers all arrive while the sources are being read, and only
    # one of them may read them
    callers, everyone_in = 4, threading.Event()
    entered: list[str] = []

    def slow_imports(start: str) -> tuple[str, ...]:
        entered.append(start)
        if len(entered) == callers:
            everyone_in.set()
        everyone_in.wait(timeout=2)  # unlocked, every caller gets here and none waits long
        return ("read/ingest.py",)

    monkeypatch.setattr(config, "package_imports", slow_imports)
    config._reading_code.cache_clear()
    try:
        with ThreadPoolExecutor(callers) as pool:
            found = list(pool.map(lambda _: config.reading_code(), range(callers)))
    finally:
        config._reading_code.cache_clear()
    assert found == [("read/ingest.py",)] * callers
    assert len(entered) == 1

def test_readme_documents_every_setting():
    from dataclasses import fields

    from pipeline.align.core import AlignParams
    from pipeline.config import PLACES
    from pipeline.repair import RULES

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Configuration"):readme.index("## Development")]
    for field in fields(Settings):
        if field.name not in PLACES:
            assert f"| `{field.name}` |" in section, field.name
    for name in (*RULES, *(f.name for f in fields(AlignParams))):
        assert f"`{name}`" in section, name


def test_a_password_in_the_catalog_url_is_never_printed(tmp_path: Path):
    settings = Settings.for_root(
        tmp_path, catalog_url="postgresql+psycopg://gazette:s3cret@db-host/catalog")
    assert settings.changed() == {"catalog_url": "postgresql+psycopg://gazette:***@db-host/catalog"}
    assert "s3cret" not in str(settings.changed())


def test_machines_sharing_a_project_keep_their_embedding_caches_apart(tmp_path: Path):
    from pipeline.embedding.encoder import embedding_cache

    alone = Settings.for_root(tmp_path)
    assert embedding_cache(alone) == tmp_path / ".gazette" / "embeddings.sqlite"
    shared = replace(alone, catalog_url="postgresql+psycopg://gazette@db-host/catalog")
    assert not embedding_cache(shared).is_relative_to(tmp_path)
    assert embedding_cache(shared).parent == shared.model_dir.parent / "embeddings"


def test_every_stage_command_takes_the_project_folder_and_overrides(tmp_path: Path):
    """`gazette clean` (as every stage command) reads the gazette.toml of --root, and
    --set wins over it; without them, defaults apply (here: ftfy repairs mojibake)."""
    from typer.testing import CliRunner

    from gazette_cli.main import app

    file = tmp_path / "note.txt"
    file.write_text("A ConvenÃ§Ã£o entra em vigor na data da notificaÃ§Ã£o.\n",
                    encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    (project / "gazette.toml").write_text('repair_disabled = ["ftfy"]\n', encoding="utf-8")
    runner = CliRunner()

    def clean(*options: str) -> str:
        result = runner.invoke(app, ["clean", str(file), *options])
        assert result.exit_code == 0, result.output
        return result.output

    assert "Convenção" in clean()
    assert "ConvenÃ§Ã£o" in clean("--root", str(project))
    assert "Convenção" in clean("--root", str(project), "--set", "repair_disabled=[]")
    assert "ConvenÃ§Ã£o" in clean("--set", 'repair_disabled=["ftfy"]')
    wrong = runner.invoke(app, ["clean", str(file), "--set", "ocr_dpy=300"])
    assert wrong.exit_code == 1 and "did you mean 'ocr_dpi'" in wrong.output
