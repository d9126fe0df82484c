"""MLPerf Training system IDs from v6.0 on: a hash of the system row, and the frozen ID
list that numbers it. Pure: no Django.

Before 6.0 the summarizer numbered the rows of its workbook by their sort order
(:mod:`benchdb.mlperf.training.result_ids`), so adding one system renumbered every row after it.
During the 6.0 cycle mlcommons/logging ``mlperf_logging/result_summarizer/result_summarizer.py``
keyed IDs to the system itself, in two steps:

- 75b9465 (2026-02-20, "Update summarizer to utilize id_json_file for public ids"; ba4e282
  default ``id_list.json``; 32e29c0 refuses a file that is not a list):
  ``_add_id_to_summary`` hashes each row of the summary, in ``_print_and_write``'s order
  (after ``sort_values``), as sha256 of the concatenated ``str`` of its columns
  :data:`LIST_FIELDS`; a row's ID is the 1-based position of its hash in the JSON list
  at ``--id_json_path``, and a hash not in it is appended (the file is written back).
  The list is therefore frozen: a system keeps its number in every later summary
  (:func:`number_rows`, :func:`frozen_numbers`).
- 61af48a (2026-03-12, humanhash), d4450d3 (2026-03-26) and 24f6591 (2026-04-02), as at
  tag 6.0.0-rc6: the list and ``--id_json_path`` are gone; ``--generate_private_ids``
  gives each system folder a *private* ID, ``_get_id_from_sysinfo``: the sha256 of the
  systems JSON's :data:`PRIVATE_FIELDS`, compressed to four words of humanhash3's word
  list (:func:`humanize`, :func:`private_id`), cached in ``results/<system>/privateid.json``
  as ``{"private_id": ...}`` (``_get_id_file`` / ``_update_id_file``) and written to the
  summary's ``private_id`` column. At 6.0.0-rc6 generating one raises KeyError
  (``_update_id_file(folder, system, desc['private_id'])`` reads a key not yet set);
  391a0a6 (2026-05-20, "Quick fix for private id generation") passes ``id['private_id']``.

Neither the list nor the ``privateid.json`` files are in the public results repository
(training_results_v6.0 has none; its submitters' own ``summary.json`` files show
``"private_id": ""``), so benchdb derives no v6.0 ID unless the round's list is given
(``ingest.result_ids.result_ids_from_list``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping, Sequence

#: ``_add_id_to_summary``'s ``columns_for_hashing`` at 75b9465: columns of the summary row.
LIST_FIELDS = (
    "division",
    "submitter",
    "system",
    "number_of_nodes",
    "host_processor_model_name",
    "host_processors_count",
    "accelerator_model_name",
    "accelerators_count",
    "framework",
)

#: ``_get_id_from_sysinfo``'s ``columns_for_hashing`` at 6.0.0-rc6: keys of the systems JSON.
PRIVATE_FIELDS = (
    "division",
    "submitter",
    "system_name",
    "number_of_nodes",
    "host_processor_model_name",
    "host_processors_per_node",
    "accelerator_model_name",
    "accelerators_per_node",
    "framework",
)

_SHA256 = re.compile(r"[0-9a-f]{64}")

#: humanhash3's DEFAULT_WORDLIST (public domain), as ``_get_id_from_sysinfo`` copies it.
WORDLIST: tuple[str, ...] = tuple(
    [
        "ack",
        "alabama",
        "alanine",
        "alaska",
        "alpha",
        "angel",
        "apart",
        "april",
        "arizona",
        "arkansas",
        "artist",
        "asparagus",
        "aspen",
        "august",
        "autumn",
        "avocado",
        "bacon",
        "bakerloo",
        "batman",
        "beer",
        "berlin",
        "beryllium",
        "black",
        "blossom",
        "blue",
        "bluebird",
        "bravo",
        "bulldog",
        "burger",
        "butter",
        "california",
        "carbon",
        "cardinal",
        "carolina",
        "carpet",
        "cat",
        "ceiling",
        "charlie",
        "chicken",
        "coffee",
        "cola",
        "cold",
        "colorado",
        "comet",
        "connecticut",
        "crazy",
        "cup",
        "dakota",
        "december",
        "delaware",
        "delta",
        "diet",
        "don",
        "double",
        "early",
        "earth",
        "east",
        "echo",
        "edward",
        "eight",
        "eighteen",
        "eleven",
        "emma",
        "enemy",
        "equal",
        "failed",
        "fanta",
        "fifteen",
        "fillet",
        "finch",
        "fish",
        "five",
        "fix",
        "floor",
        "florida",
        "football",
        "four",
        "fourteen",
        "foxtrot",
        "freddie",
        "friend",
        "fruit",
        "gee",
        "georgia",
        "glucose",
        "golf",
        "green",
        "grey",
        "hamper",
        "happy",
        "harry",
        "hawaii",
        "helium",
        "high",
        "hot",
        "hotel",
        "hydrogen",
        "idaho",
        "illinois",
        "india",
        "indigo",
        "ink",
        "iowa",
        "island",
        "item",
        "jersey",
        "jig",
        "johnny",
        "juliet",
        "july",
        "jupiter",
        "kansas",
        "kentucky",
        "kilo",
        "king",
        "kitten",
        "lactose",
        "lake",
        "lamp",
        "lemon",
        "leopard",
        "lima",
        "lion",
        "lithium",
        "london",
        "louisiana",
        "low",
        "magazine",
        "magnesium",
        "maine",
        "mango",
        "march",
        "mars",
        "maryland",
        "massachusetts",
        "may",
        "mexico",
        "michigan",
        "mike",
        "minnesota",
        "mirror",
        "mississippi",
        "missouri",
        "mobile",
        "mockingbird",
        "monkey",
        "montana",
        "moon",
        "mountain",
        "muppet",
        "music",
        "nebraska",
        "neptune",
        "network",
        "nevada",
        "nine",
        "nineteen",
        "nitrogen",
        "north",
        "november",
        "nuts",
        "october",
        "ohio",
        "oklahoma",
        "one",
        "orange",
        "oranges",
        "oregon",
        "oscar",
        "oven",
        "oxygen",
        "papa",
        "paris",
        "pasta",
        "pennsylvania",
        "pip",
        "pizza",
        "pluto",
        "potato",
        "princess",
        "purple",
        "quebec",
        "queen",
        "quiet",
        "red",
        "river",
        "robert",
        "robin",
        "romeo",
        "rugby",
        "sad",
        "salami",
        "saturn",
        "september",
        "seven",
        "seventeen",
        "shade",
        "sierra",
        "single",
        "sink",
        "six",
        "sixteen",
        "skylark",
        "snake",
        "social",
        "sodium",
        "solar",
        "south",
        "spaghetti",
        "speaker",
        "spring",
        "stairway",
        "steak",
        "stream",
        "summer",
        "sweet",
        "table",
        "tango",
        "ten",
        "tennessee",
        "tennis",
        "texas",
        "thirteen",
        "three",
        "timing",
        "triple",
        "twelve",
        "twenty",
        "two",
        "uncle",
        "undress",
        "uniform",
        "uranus",
        "utah",
        "vegan",
        "venus",
        "vermont",
        "victor",
        "video",
        "violet",
        "virginia",
        "washington",
        "west",
        "whiskey",
        "white",
        "william",
        "winner",
        "winter",
        "wisconsin",
        "wolfram",
        "wyoming",
        "xray",
        "yankee",
        "yellow",
        "zebra",
        "zulu",
    ]
)


class IdListError(ValueError):
    """An ID list or ``privateid.json`` that is not what the summarizer writes (names
    the file and, for a list, the 0-based position)."""


def row_hash(row: Mapping[str, object], fields: Sequence[str]) -> str:
    """sha256 hex digest of ``''.join(str(row[c]) for c in fields)`` (UTF-8), as both
    ``get_hash`` functions compute it. ``row``: a summary row (:data:`LIST_FIELDS`: counts
    as int, nodes as the JSON's string) or a systems JSON (:data:`PRIVATE_FIELDS`).
    Raises KeyError for a missing field."""
    text = "".join(str(row[c]) for c in fields)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_id_list(text: str, name: str) -> list[str]:
    """An ``--id_json_path`` file: a JSON list of sha256 hex digests, in ID order.
    Raises :class:`IdListError` naming ``name`` when it is not JSON, not a list (the
    summarizer's own ValueError, 32e29c0) or holds anything but a 64-hex-digit string."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise IdListError(f"{name}: not JSON ({exc})") from exc
    if not isinstance(data, list):
        raise IdListError(f"{name}: an ID list is a JSON list, not {type(data).__name__}")
    for i, h in enumerate(data):
        if not (isinstance(h, str) and _SHA256.fullmatch(h)):
            raise IdListError(f"{name}: entry {i} is not a sha256 hex digest: {str(h)[:80]!r}")
    return data


def number_rows(hashes: Sequence[str], id_list: Sequence[str]) -> tuple[list[int], list[str]]:
    """``_add_id_to_summary`` (75b9465): each hash's ID, in row order, and the list as
    written back. A hash in the list has its first 1-based position; one that is not is
    appended and numbered with the list's new length (rows sharing a hash share an ID)."""
    out = list(id_list)
    first = {h: i + 1 for i, h in reversed(list(enumerate(out)))}
    ids = []
    for h in hashes:
        if h not in first:
            out.append(h)
            first[h] = len(out)
        ids.append(first[h])
    return ids, out


def frozen_numbers(hashes: Sequence[str], id_list: Sequence[str]) -> list[int | None]:
    """The published reading of a frozen list: each hash's 1-based position, None for a
    system the list does not hold (no number is invented for it)."""
    first = {h: i + 1 for i, h in reversed(list(enumerate(id_list)))}
    return [first.get(h) for h in hashes]


def summary_row_fields(desc: Mapping[str, object]) -> dict[str, object]:
    """The :data:`LIST_FIELDS` of a systems JSON's summary row, as ``summarize_results``
    fills them at 75b9465: ``system`` is ``system_name`` (``_pretty_system_name``; TPUv3
    names aside), counts are per node times ``number_of_nodes`` (int), ``number_of_nodes``
    stays the JSON's string. Raises KeyError or ValueError as the summarizer would (it
    then skips the system)."""
    nodes = int(str(desc["number_of_nodes"]))
    return {
        "division": desc["division"],
        "submitter": desc["submitter"],
        "system": desc["system_name"],
        "number_of_nodes": str(desc["number_of_nodes"]),
        "host_processor_model_name": desc["host_processor_model_name"],
        "host_processors_count": int(str(desc["host_processors_per_node"])) * nodes,
        "accelerator_model_name": desc["accelerator_model_name"],
        "accelerators_count": int(str(desc["accelerators_per_node"])) * nodes,
        "framework": desc["framework"],
    }


def humanize(hexdigest: str, words: int = 4, separator: str = "-") -> str:
    """humanhash3 ``HumanHasher.humanize``: the digest's bytes XOR-folded into ``words``
    segments (segment of byte i: ``min(floor(i / (n / words)), words - 1)``), each a
    word of :data:`WORDLIST`. Raises ValueError for an odd-length or non-hex digest."""
    if len(hexdigest) % 2 or not re.fullmatch(r"[0-9a-fA-F]*", hexdigest):
        raise ValueError(f"not a hex digest: {hexdigest[:80]!r}")
    data = bytes.fromhex(hexdigest)
    if words >= len(data):
        return separator.join(WORDLIST[b] for b in data)
    seg = len(data) / words
    out = [0] * words
    for i, b in enumerate(data):
        out[min(math.floor(i / seg), words - 1)] ^= b
    return separator.join(WORDLIST[b] for b in out)


def private_id(desc: Mapping[str, object]) -> str:
    """``_get_id_from_sysinfo`` (6.0.0-rc6): the four-word private ID of a systems JSON.
    Raises KeyError for a missing :data:`PRIVATE_FIELDS` key."""
    return humanize(row_hash(desc, PRIVATE_FIELDS))


def parse_private_id_file(text: str, name: str) -> str:
    """``results/<system>/privateid.json`` as ``_update_id_file`` writes it:
    ``{"private_id": "<words>"}``. Raises :class:`IdListError` naming ``name`` otherwise."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise IdListError(f"{name}: not JSON ({exc})") from exc
    pid = data.get("private_id") if isinstance(data, dict) else None
    if not isinstance(pid, str) or not re.fullmatch(r"[a-z]+(?:-[a-z]+){3}", pid):
        raise IdListError(f"{name}: no four-word private_id")
    return pid
