"""Result-ID tables (``ingest.parsers.result_id_table``): every fault named with its file
and line, and nothing returned when there is one."""

from __future__ import annotations

import pytest

from ingest.parsers.result_id_table import IdRow, IdTableError, parse_id_table


def test_a_good_table_with_free_header_spelling_and_extra_columns():
    data = (
        b"\xef\xbb\xbfRound,Public ID,Submitter,System Name,Benchmark,Notes\r\n"
        b"3.0,3.0-2053,Dell,XE9680x8H100-SXM-80GB,resnet,x\r\n"
        b",,,,,\r\n"
        b"v3.0,3.0-2064,NVIDIA,dgxh100_ngc23.04_pytorch,,\r\n"
    )
    assert parse_id_table(data, "ids.csv") == [
        IdRow(2, "v3.0", "3.0-2053", "Dell", "XE9680x8H100-SXM-80GB", "resnet"),
        IdRow(4, "v3.0", "3.0-2064", "NVIDIA", "dgxh100_ngc23.04_pytorch"),
    ]


def test_a_missing_column_names_the_file_line_and_what_was_found():
    with pytest.raises(IdTableError) as exc:
        parse_id_table(b"round,id,organization\n3.0,3.0-2053,Dell\n", "t.csv")
    assert str(exc.value) == (
        "t.csv:1: no column system in the header (found 'round', 'id', 'organization')"
    )


def test_every_bad_row_is_reported_with_its_line_and_none_is_returned():
    data = (
        b"round,id,submitter,system\n"
        b"3.0,3.0-2053,Dell,XE9680\n"  # good
        b"3.x,3.0-2054,G,s\n"  # 3: round
        b"3.0,2054,G,s\n"  # 4: id
        b"3.0,3.1-2054,G,s\n"  # 5: other round
        b"3.0,3.0-2055,,s\n"  # 6: empty submitter
        b"3.0,3.0-2053,NVIDIA,dgx\n"  # 7: ID already given to Dell/XE9680
        b"3.0,3.0-2056,Dell,XE9680\n"  # 8: Dell/XE9680 already has 3.0-2053
    )
    with pytest.raises(IdTableError) as exc:
        parse_id_table(data, "t.csv")
    assert [str(e) for e in exc.value.errors] == [
        "t.csv:3: round '3.x' is not like v3.0 (round)",
        "t.csv:4: ID '2054' is not like 3.0-2053 (id)",
        "t.csv:5: ID 3.1-2054 is not of round v3.0 (id)",
        "t.csv:6: empty (submitter)",
        "t.csv:7: ID 3.0-2053 is also given to Dell/XE9680 on line 2 (id)",
        "t.csv:8: Dell/XE9680 already has ID 3.0-2053 on line 2 (id)",
    ]


def test_not_utf8_is_reported_with_the_byte():
    with pytest.raises(IdTableError, match=r"t.csv: not UTF-8 \(invalid start byte at byte 5\)"):
        parse_id_table(b"round\xff,id\n", "t.csv")


def test_a_quoted_cell_over_lines_keeps_the_line_of_its_end():
    data = b'round,id,submitter,system\n3.0,3.0-2053,"De\nll",XE\n3.0,bad,D,X\n'
    with pytest.raises(IdTableError) as exc:
        parse_id_table(data, "t.csv")
    assert [e.line for e in exc.value.errors] == [4]
