"""The differential run (bench/differential.py) at a tiny size: it repeats itself, and it can fail."""

import gzip
import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "differential.py"


@pytest.fixture(scope="module")
def differential():
    spec = importlib.util.spec_from_file_location("differential", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recordings(differential, tmp_path_factory):
    folder = tmp_path_factory.mktemp("differential")
    paths = [folder / "a.jsonl.gz", folder / "b.jsonl.gz"]
    for path in paths:
        differential.main(["record", str(path), "--seed", "7", "--hands", "50", "--checks", "20", "--stored", "20"])
    return paths


def lines(path):
    with gzip.open(path, "rt", encoding="utf-8") as file:
        return [json.loads(line) for line in file]


def test_a_recording_holds_scores_refusals_checks_and_stored_matches(recordings):
    answers = lines(recordings[0])
    kinds = {(answer["kind"], answer["status"]) for answer in answers}
    assert {("score", 200), ("score", 422), ("check", 200), ("match", 200)} <= kinds
    # 20 questions, one action in turn: meld, initial meld (a meld), pickup, go_out, discard.
    checks = [answer["request"]["action"] for answer in answers if answer["kind"] == "check"]
    assert checks[:5] == ["meld", "meld", "pickup", "go_out", "discard"] and len(checks) == 20
    scored = sum(len(answer["request"]["hands"]) for answer in answers if answer["kind"] == "score")
    assert scored >= 50  # every hand is sent at least once; refused matches again without the refused hands


def test_two_recordings_of_one_tree_do_not_differ(differential, recordings, capsys):
    assert differential.main(["compare", *map(str, recordings)]) == 0
    assert "no differences" in capsys.readouterr().out


def test_compare_finds_a_planted_difference(differential, recordings, tmp_path, capsys):
    answers = lines(recordings[0])
    changed = next(answer for answer in answers if answer["kind"] == "score" and answer["status"] == 200)
    changed["body"]["hands"][0]["scores"][0] += 5
    planted = tmp_path / "planted.jsonl.gz"
    with gzip.open(planted, "wt", encoding="utf-8") as file:
        file.writelines(differential.canonical(answer) + "\n" for answer in answers)
    assert differential.main(["compare", str(recordings[0]), str(planted)]) == 1
    out = capsys.readouterr().out
    assert f"#{changed['n']} score" in out
    assert ".body.hands[0].scores[0]" in out
    assert "1 answers differ" in out


def test_compare_finds_a_recording_cut_short(differential, recordings, tmp_path):
    short = tmp_path / "short.jsonl.gz"
    with gzip.open(short, "wt", encoding="utf-8") as file:
        file.writelines(differential.canonical(answer) + "\n" for answer in lines(recordings[0])[:-1])
    assert differential.main(["compare", str(recordings[0]), str(short)]) == 1
