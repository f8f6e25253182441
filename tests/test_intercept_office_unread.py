"""An Office file's members no reader reads (an image a `.docx` embeds, a font) are named on the request's record, as
an image part is (walk 7), while its text is read as before (walk 8): over loopback HTTP in front of the scripted
stand-in upstream, then `intercept audit` over the store."""

from __future__ import annotations

import io
import zipfile

import pytest
from click.testing import CliRunner
from intercept_helpers import enforcing_client
from test_intercept_forms_walk_3 import NEAR, RECORD, UNIT_IDS, UNITS
from test_intercept_forms_walk_7 import PNG, _file_positions, _post
from test_intercept_forms_walk_8 import OFFICE, _zip, office_file

from ec2audit.cli import main
from ec2audit.units import write_units

__all__ = ["UNITS"]

#: bytes of no known kind and no UTF-8 text (an embedded font, obfuscated as Word does)
FONT = bytes(range(128, 256)) * 2


def _with_media(record: dict, nested: bool = False) -> bytes:
    """A `.docx` holding `record` in its body and, as Word stores them, a picture and a font; `nested`: that file
    inside a zip (an attachment archived)."""
    with zipfile.ZipFile(io.BytesIO(office_file("docx", record))) as docx:
        members = {name: docx.read(name) for name in docx.namelist()}
    data = _zip({**members, "word/media/image1.png": PNG, "word/fonts/font1.odttf": FONT})
    return _zip({"report.docx": data}) if nested else data


def _named(nested: bool) -> list[tuple[str, str, int]]:
    inside = "report.docx/" if nested else ""
    return [(inside + "word/media/image1.png", "image/png", len(PNG)),
            (inside + "word/fonts/font1.odttf", "application/octet-stream", len(FONT))]


def _unread(record) -> list[tuple[str, str, int]]:
    assert all(u["path"] == "/messages/0/content/0/file/file_data" for u in record.unread)
    return [(u["member"], u["media_type"], u["bytes"]) for u in record.unread]


@pytest.mark.parametrize("nested", [False, True])
def test_a_docx_of_near_misses_goes_out_with_its_picture_named_unread(proxy, nested):
    path, body = _file_positions(_with_media(NEAR, nested), OFFICE["docx"])["chat.file.file_data"]
    answer, sent, record = _post(proxy, f"media-near-{nested}", path, body)
    assert (answer.status_code, len(sent), record.findings) == (200, 1, [])
    assert _unread(record) == _named(nested)


@pytest.mark.parametrize("nested", [False, True])
def test_a_docx_holding_the_record_is_refused_and_names_its_picture(proxy, nested):
    """Its text is read beside the members it cannot read: every unit found inside the zip, refused in both modes."""
    path, body = _file_positions(_with_media(RECORD, nested), OFFICE["docx"])["chat.file.file_data"]
    answer, sent, record = _post(proxy, f"media-record-{nested}", path, body)
    inside = {f["unit_id"] for f in record.findings if f["path"].startswith("zip:/")}
    assert (answer.status_code, sent, inside) == (403, [], UNIT_IDS)
    assert _unread(record) == _named(nested)


def test_intercept_audit_counts_the_members_no_detector_read(standin, tmp_path):
    app, upstream = standin
    path, body = _file_positions(_with_media(NEAR), OFFICE["docx"])["chat.file.file_data"]
    with enforcing_client(upstream, tmp_path, UNITS, "observe") as (client, store):
        assert client.post(f"/e/docx{path}", json={"model": "echo", **body}).status_code == 200
    write_units(UNITS, tmp_path / "units.jsonl")
    result = CliRunner().invoke(main, ["intercept", "audit", str(tmp_path / "s.sqlite"), "--units",
                                       str(tmp_path / "units.jsonl")])
    assert result.exit_code == 0, result.output
    assert "2 files sent that the proxy could not read inside (application/octet-stream ×1, image/png ×1)" \
        in result.stderr
