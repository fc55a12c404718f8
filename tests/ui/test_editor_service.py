"""The phone editor's logic (ui/editor.py) without a server: the sources, a ruleset's data, saving through
banker.editions.save_edition with the editor's bounds and name rules, downloading and uploading, and the
refusals' fields and messages (in the table's language where we have them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from banker.editions import list_editions
from banker.errors import RulesetError
from banker.ruleset import builtin_names, load_edition, load_ruleset
from ui import editor, editor_page
from ui.editor import EditorRefusal, EditorService
from ui.i18n import Translator


@pytest.fixture
def service(tmp_path: Path) -> EditorService:
    return EditorService(tmp_path / "editions", Translator("cs"))


def classic_as(name: str, title: str) -> dict[str, Any]:
    data = load_ruleset("classic").source_data()
    data["name"], data["title"] = name, title
    return data


def fields(result: dict[str, Any]) -> list[str]:
    assert result["ok"] is False
    return [e["field"] for e in result["errors"]]


def files(service: EditorService) -> dict[str, bytes]:
    where = Path(service.folder or "")
    return {p.name: p.read_bytes() for p in sorted(where.iterdir())} if where.exists() else {}


def test_sources_are_the_shipped_rulesets_then_the_playable_editions(service: EditorService) -> None:
    assert service.save({"data": classic_as("zeta", "Zeta")})["ok"]
    assert service.save({"data": classic_as("alpha", "Alpha")})["ok"]
    folder = Path(service.folder or "")
    (folder / "broken.toml").write_text("name = 'broken'\n", encoding="utf-8")
    sources = service.sources()
    assert [s["name"] for s in sources] == builtin_names() + ["alpha", "zeta"]
    assert all(s["kind"] == "shipped" for s in sources[:len(builtin_names())])
    assert sources[-2:] == [{"name": "alpha", "title": "Alpha", "kind": "edition"},
                            {"name": "zeta", "title": "Zeta", "kind": "edition"}]


def test_a_rulesets_data_is_merged_and_loads_alone(service: EditorService) -> None:
    found = service.ruleset("brands-fast")  # extends brands
    assert found["original"] is None and "extends" not in found["data"]
    assert found["data"] == load_ruleset("brands-fast").source_data()
    assert service.save({"data": classic_as("ours", "Ours")})["ok"]
    mine = service.ruleset("ours")
    assert mine["original"] == "ours" and mine["data"]["title"] == "Ours"
    for name in ("nothing", "", "../classic", None, 5, "x" * 500):
        with pytest.raises(EditorRefusal) as refused:
            service.ruleset(name)
        assert refused.value.result()["errors"][0]["field"] == "name"


def test_a_broken_edition_is_no_source_and_its_ruleset_is_refused(service: EditorService) -> None:
    folder = Path(service.folder or "")
    folder.mkdir(parents=True)
    (folder / "broken.toml").write_text("name = 'broken'\n", encoding="utf-8")
    with pytest.raises(EditorRefusal):
        service.ruleset("broken")


def test_save_writes_the_edition_and_renaming_makes_a_copy(service: EditorService) -> None:
    data = classic_as("our-street", "Our Street")
    data["spaces"][24]["name"] = "Ulice Lipová"
    assert service.save({"data": data, "original": None, "replace": False}) == {
        "ok": True, "name": "our-street", "title": "Our Street"}
    assert load_edition("our-street", service.folder).spaces[24].name == "Ulice Lipová"
    data["name"] = "copy"
    assert service.save({"data": data, "original": "our-street"})["ok"]
    assert sorted(e.name for e in list_editions(service.folder)) == ["copy", "our-street"]


def test_a_taken_name_is_refused_unless_replace_or_the_original(service: EditorService) -> None:
    assert service.save({"data": classic_as("ours", "One")})["ok"]
    before = files(service)
    refused = service.save({"data": classic_as("ours", "Two")})
    assert refused["errors"] == [{"field": "name", "message": Translator("cs")("ui.editions.name_taken", name="ours")}]
    assert fields(service.save({"data": classic_as("ours", "Two"), "original": "other"})) == ["name"]
    assert files(service) == before
    assert service.save({"data": classic_as("ours", "Two"), "original": "ours"})["ok"]
    assert service.save({"data": classic_as("ours", "Three"), "replace": True})["ok"]
    assert load_edition("ours", service.folder).title == "Three"


def test_a_taken_name_and_a_bad_price_are_both_named(service: EditorService) -> None:
    assert service.save({"data": classic_as("ours", "One")})["ok"]
    data = classic_as("ours", "Two")
    data["spaces"][24]["price"] = -5
    assert fields(service.save({"data": data})) == ["name", "spaces[24].price"]


@pytest.mark.parametrize("name,key,params", [
    ("", "ui.editions.name_empty", {}),
    ("a" * 41, "ui.editions.name_long", {"most": 40}),
    ("Our Street", "ui.editions.name_marks", {"marks": "O S"}),
    ("-ours", "ui.editions.name_marks", {"marks": "-"}),
    ("classic", "ui.editions.name_shipped", {"name": "classic"}),
])
def test_name_refusals_use_the_touchscreens_words(service: EditorService, name: str, key: str,
                                                   params: dict[str, Any]) -> None:
    result = service.save({"data": classic_as(name, "Ours")})
    assert result["errors"][0] == {"field": "name", "message": Translator("cs")(key, **params)}
    assert files(service) == {}


def test_a_name_that_is_not_text_is_refused_on_name(service: EditorService) -> None:
    for name in (None, 5, ["a"], {"a": 1}):
        assert fields(service.save({"data": classic_as(name, "Ours")}))[0] == "name"  # type: ignore[arg-type]


@pytest.mark.parametrize("change,field", [
    (lambda d: d.__setitem__("title", "x" * (editor.MAX_TEXT + 1)), "title"),
    (lambda d: d.__setitem__("title", "   "), "title"),
    (lambda d: d["spaces"][3].__setitem__("name", "a\x00b"), "spaces[3].name"),
    (lambda d: d["spaces"][3].__setitem__("name", "line\nbreak"), "spaces[3].name"),
    (lambda d: d["spaces"][39].__setitem__("name", "y" * 61), "spaces[39].name"),
    (lambda d: d["groups"]["red"].__setitem__("name", "z" * 61), "groups.red.name"),
    (lambda d: d.__setitem__("description", "d" * (editor.MAX_OTHER_TEXT + 1)), "description"),
    (lambda d: d["spaces"][1].__setitem__("rents", [[[[[[1]]]]]]), "spaces[1].rents[0][0][0]"),
    (lambda d: d.__setitem__("spaces", d["spaces"] * 2), "spaces"),
    (lambda d: d["options"].update({f"o{i}": 1 for i in range(editor.MAX_KEYS + 1)}), "options"),
    (lambda d: d["options"].__setitem__("k" * 65, 1), "options"),
    (lambda d: d["spaces"][24].__setitem__("price", -5), "spaces[24].price"),
    (lambda d: d["spaces"][24].__setitem__("price", "240"), "spaces[24].price"),
    (lambda d: d["options"].__setitem__("salary", -1), "options.salary"),
    (lambda d: d["groups"]["red"].__setitem__("color", "red"), "groups.red.color"),
    (lambda d: d["groups"]["red"].__setitem__("color", "#ED1B2"), "groups.red.color"),
    (lambda d: d["groups"]["red"].__setitem__("color", "#ED1B24\n"), "groups.red.color"),
])
def test_data_past_the_bounds_or_the_schema_is_refused_naming_the_field(service: EditorService, change: Any,
                                                                         field: str) -> None:
    data = classic_as("ours", "Ours")
    change(data)
    result = service.save({"data": data})
    assert fields(result) == [field]
    assert result["errors"][0]["message"]
    assert files(service) == {}


def test_names_at_the_bound_are_saved(service: EditorService) -> None:
    data = classic_as("ours", "T" * editor.MAX_TEXT)
    data["spaces"][1]["name"] = "Ł" * editor.MAX_TEXT
    data["spaces"][3]["name"] = "<script>alert(1)</script>"  # names are text: kept as typed
    assert service.save({"data": data})["ok"]
    assert load_edition("ours", service.folder).spaces[3].name == "<script>alert(1)</script>"


@pytest.mark.parametrize("payload,field", [
    (None, ""), ([], ""), ("text", ""), ({}, ""), ({"data": []}, ""), ({"data": "x"}, ""),
    ({"data": {}, "original": 5}, "original"), ({"data": {}, "replace": "yes"}, "replace"),
    ({"data": {}, "replace": 1}, "replace"),
])
def test_a_malformed_payload_is_refused(service: EditorService, payload: Any, field: str) -> None:
    assert fields(service.save(payload))[0] == field


@pytest.mark.parametrize("body", [b"\xff", b"{", b"[" * 100_000, b'{"data": NaN}', b'{"data": {"a": Infinity}}',
                                  b'{"data": {"a": ' + b"9" * 10_000 + b"}}", b"", b"null", b"1e999"])
def test_a_bad_json_body_is_refused_not_raised(service: EditorService, body: bytes) -> None:
    result = service.save_body(body)
    assert result["ok"] is False and result["errors"][0]["message"]
    assert files(service) == {}


def test_save_body_saves_a_good_body(service: EditorService) -> None:
    body = json.dumps({"data": classic_as("ours", "Ours")}, ensure_ascii=False).encode()
    assert service.save_body(body)["ok"]
    assert fields(service.save_body(b" " * (editor.MAX_EDIT_BODY + 1))) == [""]


def test_download_gives_the_stored_file_and_upload_takes_it_back(service: EditorService, tmp_path: Path) -> None:
    assert service.save({"data": classic_as("ours", "Ours")})["ok"]
    filename, body = service.download("ours")
    assert filename == "ours.toml" and body == (Path(service.folder or "") / "ours.toml").read_bytes()
    elsewhere = EditorService(tmp_path / "elsewhere", Translator("ru"))
    assert elsewhere.upload(body.decode()) == {"ok": True, "name": "ours", "title": "Ours"}
    assert fields(elsewhere.upload(body.decode())) == ["name"]
    assert elsewhere.upload(body.decode(), replace=True)["ok"]
    assert elsewhere.upload_body(body, replace=True)["ok"]
    for name in ("nothing", "classic", "../ours", "", None):
        with pytest.raises(EditorRefusal):
            service.download(name)


@pytest.mark.parametrize("text", [
    "", "garbage = = =", "name = 'x'\n", 'extends = "classic"\nname = "classic"\n', "a = [" * 100 + "]" * 100,
    "[[spaces]]\n" * 100, 'extends = "classic"\nname = "ours"\ntitle = "' + "t" * 70 + '"\n'])
def test_upload_refusals(service: EditorService, text: str) -> None:
    assert service.upload(text)["ok"] is False
    assert files(service) == {}


def test_an_upload_extending_a_shipped_ruleset_is_saved_as_written(service: EditorService) -> None:
    text = 'extends = "classic"\nname = "short-one"\ntitle = "Short One"\n'
    assert service.upload(text)["ok"]
    assert (Path(service.folder or "") / "short-one.toml").read_text(encoding="utf-8") == text
    assert [s["name"] for s in service.sources()][-1] == "short-one"


def test_messages_come_from_the_pages_refusal_text_when_there_is_one(service: EditorService,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[RulesetError] = []

    def refusal_text(tr: Translator, error: RulesetError) -> str:
        seen.append(error)
        return f"[{tr.language}] {error.key}"

    monkeypatch.setattr(editor_page, "refusal_text", refusal_text)
    data = classic_as("ours", "Ours")
    data["spaces"][24]["price"] = -5
    assert service.save({"data": data})["errors"] == [{"field": "spaces[24].price", "message": "[cs] spaces[24].price"}]
    assert seen[0].problem.startswith("must be at least 1")


def test_a_failing_refusal_text_falls_back_to_the_engines_words(service: EditorService,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def refusal_text(tr: Translator, error: RulesetError) -> str:
        raise KeyError("oops")

    monkeypatch.setattr(editor_page, "refusal_text", refusal_text)
    data = classic_as("ours", "Ours")
    data["spaces"][24]["price"] = -5
    assert service.save({"data": data})["errors"][0]["message"] == "must be at least 1, not -5"
