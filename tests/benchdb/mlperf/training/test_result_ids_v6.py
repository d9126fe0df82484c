"""The v6.0 system IDs (``benchdb.mlperf.training.result_ids_v6``) against the files
mlcommons/logging's
summarizer wrote on two real v6.0 systems JSONs (tests/data/result_ids/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchdb.mlperf.training import result_ids_v6 as ids

DATA = Path(__file__).resolve().parents[3] / "data"
SYSTEMS = DATA / "training-v6.0" / "training_results_v6.0"
INVENTEC = SYSTEMS / "Inventec/systems/P9000IG7_ngc26.04_nemo.json"
AMD = SYSTEMS / "AMD/systems/MI355X_EPYC_9575F_primus.json"
ID_LIST = DATA / "result_ids/v6.0/id_list_75b9465.json"
PRIVATE = DATA / "result_ids/v6.0/privateid_391a0a6.json"


def _desc(path: Path) -> dict[str, object]:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # result_summarizer._get_id_from_sysinfo at 6.0.0-rc6 and at 391a0a6, same output
        (INVENTEC, "crazy-happy-mockingbird-uranus"),
        (AMD, "double-king-summer-november"),
    ],
)
def test_private_id_is_the_summarizers(path: Path, expected: str) -> None:
    assert ids.private_id(_desc(path)) == expected


def test_the_private_id_file_the_summarizer_wrote_is_read() -> None:
    """``--generate_private_ids`` at 391a0a6 wrote results/<system>/privateid.json."""
    text = PRIVATE.read_text(encoding="utf-8")
    assert ids.parse_private_id_file(text, PRIVATE.name) == ids.private_id(_desc(INVENTEC))


def test_the_id_list_numbers_rows_by_their_hash_in_summary_order() -> None:
    """75b9465 ``_add_id_to_summary`` from no list: rows in ``sort_values`` order (AMD's
    row sorts first), each hash appended; the list it wrote is the file in tests/data."""
    listed = ids.parse_id_list(ID_LIST.read_text(encoding="utf-8"), ID_LIST.name)
    rows = [ids.summary_row_fields(_desc(p)) for p in (AMD, INVENTEC)]
    hashes = [ids.row_hash(r, ids.LIST_FIELDS) for r in rows]
    numbers, written = ids.number_rows(hashes, [])
    assert numbers == [1, 2] and written == listed


def test_a_frozen_list_keeps_every_number_when_a_system_is_added() -> None:
    listed = ids.parse_id_list(ID_LIST.read_text(encoding="utf-8"), ID_LIST.name)
    inventec = ids.row_hash(ids.summary_row_fields(_desc(INVENTEC)), ids.LIST_FIELDS)
    new = "0" * 64
    numbers, written = ids.number_rows([new, inventec], listed)
    assert numbers == [3, 2] and written == [*listed, new]
    assert ids.frozen_numbers([new, inventec], listed) == [None, 2]


def test_any_hashed_field_changes_the_id() -> None:
    desc = _desc(INVENTEC)
    base = ids.row_hash(ids.summary_row_fields(desc), ids.LIST_FIELDS)
    for key in ("number_of_nodes", "accelerators_per_node", "framework", "division"):
        other = dict(desc, **{key: "2" if key != "division" else "open"})
        assert ids.row_hash(ids.summary_row_fields(other), ids.LIST_FIELDS) != base
    # hw_notes and status are not hashed
    same = dict(desc, hw_notes="other", status="Available cloud")
    assert ids.row_hash(ids.summary_row_fields(same), ids.LIST_FIELDS) == base


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1}', "is a JSON list, not dict"),
        ('["abc"]', "entry 0 is not a sha256"),
        ("[", "not JSON"),
    ],
)
def test_a_bad_id_list_is_refused_naming_the_file(text: str, message: str) -> None:
    with pytest.raises(ids.IdListError, match=message) as err:
        ids.parse_id_list(text, "id_list.json")
    assert str(err.value).startswith("id_list.json: ")


def test_humanize_folds_bytes_by_xor() -> None:
    """humanhash3: 8 bytes into 4 words, two bytes XORed per word."""
    # segments: 0^1, 2^3, 255^0, 0^0
    assert ids.humanize("00010203ff000000") == "alabama-alabama-zulu-ack"
    with pytest.raises(ValueError):
        ids.humanize("xyz")
