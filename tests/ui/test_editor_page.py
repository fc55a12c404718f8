"""The phone editor's page: its words (ui/editor_page.py: editor_labels in four languages, refusal_text of the
engine's own refusals), the page file itself (ui/editor.html: no markup from data, nothing from outside, no
inline handlers), and the page in a real browser: headless Chromium at a phone's 375x667 claims a code from a
real PhoneServer, copies classic into "our-street" titled "Our Street", renames Illinois Avenue and changes its
price, saves, sees a bad price refused beside its field, downloads and uploads an edition, and is told when the
session has ended, in each of the four languages. The screenshots go to $EDITOR_SHOTS if set (else the test's
temporary folder).

Chromium is driven as in tests/ui/test_phone_page.py, whose helpers are imported here.
"""

from __future__ import annotations

import asyncio
import copy
import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from banker.editions import save_edition
from banker.errors import RulesetError
from banker.ruleset import builtin_names, load_edition, load_ruleset, ruleset_from_data
from ui.editor_page import HOUSE_LABELS, MONEY_OPTIONS, editor_labels, refusal_text
from ui.i18n import Translator, catalogue

PAGE = Path(__file__).resolve().parents[2] / "ui" / "editor.html"
LANGS = ("en", "pl", "cs", "ru")


# ---------------------------------------------------------------------- the labels


def test_every_label_is_in_each_language_and_none_falls_back_to_its_key() -> None:
    english = editor_labels(Translator("en"))
    for language in LANGS:
        labels = editor_labels(Translator(language))
        assert labels.keys() == english.keys(), language
        assert labels["language"] == language
        for key, text in labels.items():
            assert text and not text.startswith("ui."), (language, key, text)
            # the same placeholders as the English, for the page to fill
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", english[key])), (language, key)
    table = catalogue("en")._catalog  # type: ignore[union-attr]  # (gettext keeps its table there)
    own = [m for m in table if isinstance(m, str) and m.startswith("ui.editor.")]
    assert len(own) > 60
    for language in ("pl", "cs", "ru"):
        cat = catalogue(language)
        assert cat is not None
        for key in own:
            # each entry written in the language itself (no fall back to the English catalogue)
            assert key in cat._catalog, (language, key)  # type: ignore[attr-defined]
        labels, english_labels = editor_labels(Translator(language)), english
        same = {k for k in labels if k != "language" and labels[k] == english_labels[k]}
        assert same <= {"rent_hotel", "rules.biznes"}, (language, same)  # ("Hotel" and "Biznes" in pl and cs too)


def test_the_labels_hold_what_the_page_asks_for() -> None:
    labels = editor_labels(Translator("en"))
    script = PAGE.read_text("utf-8")
    asked = set(re.findall(r"\bL\(\"([a-z_.]+)\"\s*[,)]", script))
    assert asked and asked <= labels.keys(), asked - labels.keys()
    # and the page uses each of them: by name, or as an option's, a house count's, a ruleset's or a list's
    patterns = {"option.": "\"option.\"", "houses_": "L(\"houses_\" + j)", "rules.": "labels[\"rules.\" + ",
                "rents": "\"rents\"", "multipliers": "\"multipliers\"", "language": "labels.language"}
    for key in labels.keys() - asked:
        assert any(key.startswith(p) and used in script for p, used in patterns.items()), key
    assert {f"option.{o}" for o in MONEY_OPTIONS} <= labels.keys()
    assert [labels[f"houses_{n}"] for n in (1, 2, HOUSE_LABELS)] == ["1 house", "2 houses", f"{HOUSE_LABELS} houses"]
    assert {f"rules.{name}" for name in builtin_names()} <= labels.keys()
    assert labels["ended"] == ("This editing session has ended. Ask the table for a new code: "
                               "Settings → Your editions → Edit on a phone.")
    for language in LANGS:  # the way back to a new code, in the touchscreen's own words
        tr = Translator(language)
        steps = [tr("ui.settings"), tr("ui.settings.editions")]
        steps += [tr("ui.editions.phone")] * tr.has("ui.editions.phone")
        assert " → ".join(steps) in editor_labels(tr)["ended"], language
    assert editor_labels(Translator("pl"))["houses_5"] == "5 domów"
    assert editor_labels(Translator("ru"))["rules.classic"] == "Классическая игра"
    # the money options the page offers are whole-number options of the engine
    from banker.ruleset import OPTION_DEFAULTS
    assert all(isinstance(OPTION_DEFAULTS[o], int) and not isinstance(OPTION_DEFAULTS[o], bool) for o in MONEY_OPTIONS)


# ---------------------------------------------------------------------- the refusals


def classic() -> dict[str, Any]:
    return copy.deepcopy(load_ruleset("classic", editions=False).source_data())


def refused(data: dict[str, Any]) -> RulesetError:
    with pytest.raises(RulesetError) as caught:
        ruleset_from_data(data, "the edition")
    return caught.value


def changed(path: str, value: Any) -> RulesetError:
    """The engine's refusal of classic with one value changed (path as the engine names it)."""
    data = classic()
    at: Any = data
    parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
    for part in parts[:-1]:
        at = at[int(part[1:-1])] if part.startswith("[") else at[part]
    last = parts[-1]
    if last.startswith("["):
        at[int(last[1:-1])] = value
    else:
        at[last] = value
    error = refused(data)
    assert error.key == path, (error.key, error.problem)
    return error


def saved_refusal(data: dict[str, Any], tmp_path: Path) -> RulesetError:
    with pytest.raises(RulesetError) as caught:
        save_edition(data, tmp_path / "editions")
    assert not (tmp_path / "editions").exists() or not list((tmp_path / "editions").iterdir())
    return caught.value


@pytest.mark.parametrize("language", LANGS)
def test_refusals_of_the_fields_the_page_edits_in_each_language(language: str, tmp_path: Path) -> None:
    tr = Translator(language)
    cases: list[tuple[RulesetError, str]] = [
        (changed("spaces[24].price", 0), tr("ui.editor.refuse.least", least=1)),
        (changed("spaces[24].price", -5), tr("ui.editor.refuse.least", least=1)),
        (changed("spaces[24].price", "abc"), tr("ui.editor.refuse.whole")),
        (changed("spaces[24].price", 2.5), tr("ui.editor.refuse.whole")),
        (changed("spaces[24].building_cost", 0), tr("ui.editor.refuse.least", least=1)),
        (changed("spaces[24].mortgage", -1), tr("ui.editor.refuse.least", least=0)),
        (changed("spaces[24].rents[2]", -3), tr("ui.editor.refuse.least", least=0)),
        (changed("spaces[24].rents[2]", "lots"), tr("ui.editor.refuse.least", least=0)),
        (changed("options.salary", -1), tr("ui.editor.refuse.least", least=0)),
        (changed("options.start_cash", "1 500"), tr("ui.editor.refuse.whole")),
        (changed("options.income_tax_percent", 150), tr("ui.editor.refuse.range", least=0, most=100)),
        (changed("options.salary", 2_000_000_000),
         tr("ui.editor.refuse.range", least=-1_000_000_000, most=1_000_000_000)),
        (changed("currency", "zl"), tr("ui.editor.refuse.currency")),
        (changed("spaces[26].name", "Illinois Avenue"), tr("ui.editor.refuse.space_name", name="Illinois Avenue")),
        (changed("name", " "), tr("ui.editions.name_empty")),
    ]
    data = classic()  # (options.jail_fine's range is the money's: at most a billion, "must be within" first)
    data["options"]["hotel_houses"] = 9
    cases.append((refused(data), tr("ui.editor.refuse.range", least=1, most=4)))
    # The names an edition may have (banker.ruleset.edition_name_problem), as saving refuses them.
    for name, want in [("classic", tr("ui.editions.name_shipped", name="classic")),
                       ("Our Street", tr("ui.editions.name_marks", marks="O S")),
                       ("-street", tr("ui.editions.name_marks", marks="-")),
                       ("a" * 41, tr("ui.editions.name_long", most=40))]:
        data = classic()
        data["name"] = name
        error = saved_refusal(data, tmp_path)
        assert error.key == "name"
        cases.append((error, want))
    # The editor's own bounds (ui/editor.py), in its words.
    from ui.editor import EditorService
    service = EditorService(tmp_path / "editions", Translator("en"))
    for path, value, want in [("title", "  ", tr("ui.editions.title_empty")),
                              ("spaces[24].name", "x" * 61, tr("ui.editor.refuse.text_long", most=60)),
                              ("spaces[24].name", "", tr("ui.editor.refuse.text_empty")),
                              ("spaces[24].name", "a\x07b", tr("ui.editor.refuse.control")),
                              ("groups.red.color", "red", tr("ui.editor.refuse.colour"))]:
        data = classic()
        data["name"] = "our-street"
        parts = re.findall(r"[^.\[\]]+|\[\d+\]", path)
        at: Any = data
        for part in parts[:-1]:
            at = at[int(part[1:-1])] if part.startswith("[") else at[part]
        at[parts[-1]] = value
        answer = service.save({"data": data, "original": None, "replace": False})
        assert answer["ok"] is False and answer["errors"][0]["field"] == path, answer
        english = answer["errors"][0]["message"]  # already refusal_text's, in the service's English
        assert english == refusal_text(Translator("en"), RulesetError("the edition", path, _problem(path, value)))
        cases.append((RulesetError("the edition", path, _problem(path, value)), want))
    assert not (tmp_path / "editions").exists() or not list((tmp_path / "editions").iterdir())
    for error, want in cases:
        assert refusal_text(tr, error) == want, (error.key, error.problem)
    if language != "en":  # each in the language, not the engine's English
        for error, _ in cases:
            assert refusal_text(tr, error) != refusal_text(Translator("en"), error), error.problem


def _problem(path: str, value: Any) -> str:
    """ui/editor.py's words for the bounds the test above crosses."""
    if path == "groups.red.color":
        return f"must be a colour written #RRGGBB, not {value!r}"
    if not str(value).strip():
        return "must not be empty"
    if len(value) > 60:
        return f"must be at most 60 characters, not {len(value)}"
    return "must not hold control characters"


@pytest.mark.parametrize("language", LANGS)
def test_other_refusals_are_the_engines_words_after_a_translated_lead(language: str) -> None:
    tr = Translator(language)
    data = classic()
    data["players"] = [1, 9]
    error = refused(data)
    text = refusal_text(tr, error)
    assert text == tr("ui.editor.refuse.engine", problem=error.problem)
    assert error.problem in text and text != error.problem
    lead = tr.template("ui.editor.refuse.engine")
    assert lead is not None and lead.replace("{problem}", "") != "ui.editor.refuse.engine"
    weird = RulesetError("the edition", "name", "something new the engine may say one day")
    assert refusal_text(tr, weird) == tr("ui.editor.refuse.engine", problem=weird.problem)


# ---------------------------------------------------------------------- the page file


def test_the_page_builds_no_markup_fetches_nothing_from_outside_and_has_no_inline_handlers() -> None:
    text = PAGE.read_text("utf-8")
    for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                   "setTimeout(\"", "javascript:", "srcdoc"):
        assert banned not in text, banned
    assert not re.search(r"https?://", text, re.I)
    assert not re.search(r"//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I)  # (no protocol-relative addresses either)
    # exactly one inline style and one inline script, with the bare tags the server hashes (ui/phoneserver/base.py)
    assert len(re.findall(r"<script\b", text)) == len(re.findall(r"<script>", text)) == 1
    assert len(re.findall(r"<style\b", text)) == len(re.findall(r"<style>", text)) == 1
    markup = re.sub(r"<script>.*?</script>|<style>.*?</style>", "", text, flags=re.S)
    assert not re.search(r"<[^>]*\son[a-z]+\s*=", markup, re.I)  # no onclick= and the like
    assert not re.search(r"<[^>]*\sstyle\s*=", markup, re.I)  # no style attributes (CSP: hashes only)
    assert not re.search(r"<(link|img|iframe|object|embed|form|base)\b(?![^>]*rel=\"icon\" href=\"data:,\")",
                         markup, re.I)
    script = re.search(r"<script>(.*?)</script>", text, re.S).group(1)  # type: ignore[union-attr]
    assert not re.search(r"\.on[a-z]+\s*=", script)  # handlers only through addEventListener
    assert not re.search(r"setAttribute\(\s*\"(on[a-z]+|style|href|src)\"", script)
    assert "createElement" in script and "textContent" in script
    # only the session's own API, by path
    assert set(re.findall(r"API \+ \"([a-z]+)", script)) <= {"start", "ruleset", "save", "upload", "download"}
    assert '"Content-Type"' in script and '"application/json"' in script and "text/plain" in script
    # no English in the page: every word comes from the labels (the brand name is not a word to translate)
    visible = re.sub(r"<[^>]+>", " ", markup)
    assert set(re.findall(r"[A-Za-z]{2,}", visible)) <= {"Board", "Banker"}
    assert not re.search(r"textContent\s*=\s*\"[^\"]*[A-Za-z]", script)
    shown = re.findall(r"\bel\(\"[a-z0-9]+\",\s*\"[^\"]*\",\s*\"([^\"]*)\"", script)
    assert shown and not any(re.search(r"[A-Za-z]", text) for text in shown), shown


def test_the_servers_csp_allows_exactly_the_pages_inline_code() -> None:
    import base64
    import hashlib

    from ui.phoneserver.base import load_page
    body, csp = load_page(str(PAGE))
    text = body.decode("utf-8")
    for tag in ("script", "style"):
        code = re.search(rf"<{tag}>(.*?)</{tag}>", text, re.S).group(1)  # type: ignore[union-attr]
        digest = base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii")
        assert f"{tag}-src 'sha256-{digest}'" in csp
    assert "form-action 'none'" in csp and "connect-src 'self'" in csp and "default-src 'none'" in csp


# ---------------------------------------------------------------------- in a browser

CODE = "Ed1tOnAPh0neQk7vX2mN9p"


def shots_folder(tmp_path: Path) -> Path:
    where = Path(os.environ["EDITOR_SHOTS"]) if os.environ.get("EDITOR_SHOTS") else tmp_path / "shots"
    where.mkdir(parents=True, exist_ok=True)
    return where


@pytest.mark.parametrize("language", LANGS)
def test_the_editor_on_a_phone_in_headless_chromium(language: str, tmp_path: Path) -> None:
    page = pytest.importorskip("test_phone_page")  # (its Browser, open_phone, CHROMIUM)
    if page.CHROMIUM is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    from ui.editor import EditorService
    from ui.web import PhoneServer

    tr = Translator(language)
    folder = tmp_path / "editions"
    server = PhoneServer(["127.0.0.1"], 0)
    server.open_editor(CODE, editor_labels(tr), EditorService(folder, tr))
    server.start()
    try:
        asyncio.run(_edit_on_a_phone(page, server, tr, folder, tmp_path, shots_folder(tmp_path)))
    finally:
        server.stop()


async def _type(b: Any, selector: str, text: str) -> None:
    """Type into an input as a phone's keyboard would: focus it, select what it holds, insert the text."""
    assert await b.js(f"(() => {{ const e = document.querySelector({selector!r}); if (!e) return false; "
                      f"e.focus(); e.select(); return true; }})()"), selector
    await b.send("Input.insertText", text=text)


def field(path: str) -> str:
    return f'[data-field="{path}"]'


async def _edit_on_a_phone(page: Any, server: Any, tr: Translator, folder: Path, tmp_path: Path,
                           shots: Path) -> None:
    lang = tr.language
    labels = editor_labels(tr)
    base = f"http://127.0.0.1:{server.port}"
    async with page.Browser(tmp_path / "profile") as b:
        await page.open_phone(b, f"{base}/e/{CODE}")
        await b.wait_for("document.querySelector('button[data-name=classic]') !== null", timeout=10)
        assert await b.js("location.pathname") == "/edit"
        assert await b.js("document.documentElement.lang") == lang
        assert await b.js("document.getElementById('heading').textContent") == labels["title"]
        assert await b.js("document.title") == labels["title"] + " · Board Banker"
        shown = await b.js("document.querySelector('button[data-name=classic] .t').textContent")
        assert shown == labels["rules.classic"]
        assert server.editor_status()["state"] == "editing"
        # the inline style applied (CSP): the page's background, and a touch target a thumb can hit
        assert await b.js("getComputedStyle(document.body).backgroundColor") == "rgb(243, 241, 236)"
        assert await b.js("document.querySelector('button[data-name=classic]').getBoundingClientRect().height") >= 48
        await b.screenshot(shots / f"{lang}-1-start.png")

        # Copy classic into our-street, "Our Street"; rename Illinois Avenue and change its price.
        await b.js("document.querySelector('button[data-name=classic]').click()")
        await b.wait_for(f"document.querySelector('{field('spaces[24].price')}') !== null")
        assert await b.js(f"document.querySelector('{field('spaces[24].name')}').value") == "Illinois Avenue"
        assert await b.js(f"document.querySelector('{field('spaces[24].price')}').inputMode") == "numeric"
        # rents one input a level, a house cost, the group's colour swatch; no page wider than the phone
        assert await b.js("document.querySelectorAll('[data-field^=\"spaces[24].rents[\"]').length") == 6
        assert await b.js(f"document.querySelector('{field('spaces[24].building_cost')}').value") == "150"
        assert await b.js("document.querySelector('section.group[data-group=red] .swatch').style.backgroundColor") == \
            "rgb(237, 27, 36)"
        assert await b.js("document.documentElement.scrollWidth") <= 375
        text = await b.js("document.body.innerText")
        assert "ui.editor" not in text and labels["option.start_cash"] in text and labels["rent_hotel"] in text
        await b.screenshot(shots / f"{lang}-2-form.png")
        await b.screenshot(shots / f"{lang}-2-form-full.png", full=True)
        await _type(b, field("name"), "our-street")
        await _type(b, field("title"), "Our Street")
        await _type(b, field("spaces[24].name"), "Our Avenue")
        await _type(b, field("spaces[24].price"), "260")
        await _type(b, field("spaces[24].rents[5]"), "1200")
        await _type(b, field("groups.red.name"), "Scarlet")
        assert await b.js("document.querySelector('section.group[data-group=red] h3').textContent") == "Scarlet"
        await b.js("document.getElementById('save').click()")
        await b.wait_for("document.getElementById('note').classList.contains('ok')")
        assert await b.js("document.getElementById('note').textContent") == labels["saved"].replace(
            "{title}", "Our Street")
        saved = load_edition("our-street", folder)
        assert saved.title == "Our Street"
        assert (saved.spaces[24].name, saved.spaces[24].price, saved.spaces[24].rents[-1]) == ("Our Avenue", 260, 1200)
        assert saved.groups["red"]["name"] == "Scarlet" and saved.groups["red"]["color"] == "#ED1B24"
        assert saved.spaces[1].name == "Mediterranean Avenue" and saved.options.salary == 200  # the rest as it was
        classic_data = load_ruleset("classic", editions=False).source_data()
        assert [c["text"] for c in saved.data["cards"]] == [c["text"] for c in classic_data["cards"]]
        assert server.editor_status()["saved"] == ["Our Street"]
        await b.screenshot(shots / f"{lang}-3-saved.png")
        stored = (folder / "our-street.toml").read_bytes()

        # A bad price: refused beside its field, scrolled to; nothing written.
        await _type(b, field("spaces[24].price"), "0")
        await b.js("window.scrollTo(0, 0)")
        await b.js("document.getElementById('save').click()")
        await b.wait_for("document.getElementById('note').classList.contains('bad')")
        assert await b.js("document.getElementById('note').textContent") == labels["refused"]
        beside = f"document.querySelector('{field('spaces[24].price')}').closest('label').querySelector('.err')"
        assert await b.js(f"{beside}.textContent") == tr("ui.editor.refuse.least", least=1)
        price = f"document.querySelector('{field('spaces[24].price')}')"
        assert await b.js(f"{price}.getAttribute('aria-invalid')") == "true"
        top = await b.js(f"document.querySelector('{field('spaces[24].price')}').getBoundingClientRect().top")
        assert 0 <= top <= 667 - 60, top  # in sight, above the save bar
        assert await b.js("document.querySelectorAll('.err:not(:empty)').length") == 1
        assert (folder / "our-street.toml").read_bytes() == stored
        await b.screenshot(shots / f"{lang}-4-refused.png")

        # Two refusals at once (a shipped name and a rent): each beside its own field, the first scrolled to.
        await _type(b, field("spaces[24].price"), "260")
        await _type(b, field("name"), "classic")
        await _type(b, field("spaces[39].rents[0]"), "x")
        await b.js("document.getElementById('save').click()")
        await b.wait_for(f"document.querySelector('{field('name')}').getAttribute('aria-invalid') === 'true'")
        assert await b.js(f"document.querySelector('{field('name')}').closest('label').querySelector('.err')"
                          ".textContent") == tr("ui.editions.name_shipped", name="classic")
        assert await b.js(f"document.querySelector('{field('spaces[39].rents')}').querySelector('.err').textContent") \
            == tr("ui.editor.refuse.least", least=0)
        assert await b.js(f"{price}.hasAttribute('aria-invalid')") is False
        top = await b.js(f"document.querySelector('{field('name')}').getBoundingClientRect().top")
        assert 0 <= top <= 667, top
        assert (folder / "our-street.toml").read_bytes() == stored
        await _type(b, field("name"), "our-street")
        await _type(b, field("spaces[39].rents[0]"), "50")
        await b.js("document.getElementById('save').click()")
        await b.wait_for("document.getElementById('note').classList.contains('ok')")
        assert await b.js("document.querySelectorAll('.err:not(:empty)').length") == 0
        assert load_edition("our-street", folder).spaces[39].rents[0] == 50

        # A change not saved: leaving the page would ask first, and Back asks for a second touch, then drops it.
        leave = "window.dispatchEvent(new Event('beforeunload', {cancelable: true}))"  # false: the browser asks
        assert await b.js(leave) is True  # nothing unsaved yet
        await _type(b, field("title"), "Our Street Never Saved")
        assert await b.js(leave) is False
        await b.js("document.getElementById('back').click()")
        assert await b.js("document.getElementById('back').textContent") == labels["drop_again"]
        assert await b.js(f"document.querySelector('{field('title')}') !== null")  # still the form
        await b.screenshot(shots / f"{lang}-4b-drop-again.png")

        # Back to the list: the edition is there, with its download link; its file comes down.
        await b.js("document.getElementById('back').click()")
        await b.wait_for("document.querySelector('[data-kind=edition] button[data-name=\"our-street\"]') !== null")
        href = await b.js("document.querySelector('[data-kind=edition] a.dl').getAttribute('href')")
        assert href == "/edit/api/download?name=our-street"
        assert await b.js("document.querySelector('[data-kind=edition] a.dl').textContent") == labels["download"]
        disposition, got = await _settled(
            b, "fetch(document.querySelector('[data-kind=edition] a.dl').href)"
               ".then(r => r.text().then(t => [r.headers.get('Content-Disposition'), t]))")
        assert disposition == 'attachment; filename="our-street.toml"'
        assert await b.js("document.querySelector('[data-kind=edition] a.dl').getAttribute('download')") == \
            "our-street.toml"
        assert tomllib.loads(got)["title"] == "Our Street" and "Our Avenue" in got

        # Upload: the same file under another name, through the file picker; then a broken one.
        upload = tmp_path / "their-street.toml"
        upload.write_text(got.replace('name = "our-street"', 'name = "their-street"')
                          .replace('title = "Our Street"', 'title = "Their Street"'), "utf-8")
        await _choose_file(b, upload)
        await b.wait_for("document.getElementById('upnote')?.classList.contains('ok')")
        assert await b.js("document.getElementById('upnote').textContent") == labels["uploaded"].replace(
            "{title}", "Their Street")
        assert load_edition("their-street", folder).spaces[24].name == "Our Avenue"
        assert await b.js("document.querySelector('button[data-name=\"their-street\"]') !== null")
        # The same file again: its name is taken now, so it is refused until the phone ticks "replace".
        await _choose_file(b, upload)
        await b.wait_for("document.getElementById('upnote').classList.contains('bad')")
        assert tr("ui.editions.name_taken", name="their-street") in await b.js(
            "document.getElementById('upnote').textContent")
        await b.js("document.getElementById('upreplace').click()")
        await _choose_file(b, upload)
        await b.wait_for("document.getElementById('upnote').classList.contains('ok')")
        broken = tmp_path / "broken.toml"
        broken.write_text(got.replace('name = "our-street"', 'name = "broken-street"')
                          .replace("price = 260", "price = 0"), "utf-8")
        await _choose_file(b, broken)
        await b.wait_for("document.getElementById('upnote').classList.contains('bad')")
        note = await b.js("document.getElementById('upnote').textContent")
        assert labels["upload_refused"] in note and tr("ui.editor.refuse.least", least=1) in note
        assert not (folder / "broken-street.toml").exists()
        await b.screenshot(shots / f"{lang}-5-list.png", full=True)

        # Saving under another edition's name is refused beside the name, unless the phone says to replace it.
        await b.js("document.querySelector('button[data-name=\"our-street\"]').click()")
        await b.wait_for(f"document.querySelector('{field('title')}') !== null")
        await _type(b, field("name"), "their-street")
        await b.js("document.getElementById('save').click()")
        await b.wait_for(f"document.querySelector('{field('name')}').getAttribute('aria-invalid') === 'true'")
        assert await b.js(f"document.querySelector('{field('name')}').closest('label').querySelector('.err')"
                          ".textContent") == tr("ui.editions.name_taken", name="their-street")
        assert load_edition("their-street", folder).title == "Their Street"
        await b.js("document.getElementById('replace').click()")
        await b.js("document.getElementById('save').click()")
        await b.wait_for("document.getElementById('note').classList.contains('ok')")
        assert load_edition("their-street", folder).title == "Our Street"
        assert load_edition("our-street", folder).title == "Our Street"  # (a copy: the one it came from stays)
        assert await b.js("document.getElementById('replace').checked") is False

        # The table ends the session (Done): the next save says so, in the table's language.
        server.close_editor()
        await _type(b, field("title"), "Our Street Again")
        await b.js("document.getElementById('save').click()")
        await b.wait_for("document.getElementById('ended') !== null")
        assert await b.js("[...document.querySelectorAll('#ended p')].map(p => p.textContent)") == [
            labels["lapsed"], labels["ended"]]
        assert await b.js("document.getElementById('bar').hidden") is True
        assert load_edition("their-street", folder).title == "Our Street"
        await b.screenshot(shots / f"{lang}-6-ended.png")
        # No script error, no CSP violation; the console's only lines are the refusals' statuses (the browser
        # logs every 4xx answer): five refused saves or uploads, the save after the end.
        statuses = [re.search(r"status of (\d+)", p) for p in b.problems()]
        assert all(statuses), b.problems()
        assert sorted(m.group(1) for m in statuses if m) == ["403", "422", "422", "422", "422", "422"], b.problems()


async def _settled(b: Any, expression: str) -> Any:
    """What a promise the page makes resolves to."""
    result = await b.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
    assert "exceptionDetails" not in result, result
    return result["result"].get("value")


async def _choose_file(b: Any, path: Path) -> None:
    """Pick a file in the page's file input, as the phone's file chooser would."""
    document = await b.send("DOM.getDocument")
    found = await b.send("DOM.querySelector", nodeId=document["root"]["nodeId"], selector="#file")
    await b.send("DOM.setFileInputFiles", files=[str(path)], nodeId=found["nodeId"])


def test_names_are_text_never_markup(tmp_path: Path) -> None:
    """A name that looks like markup is shown as typed, in the list and in the form."""
    page = pytest.importorskip("test_phone_page")  # (its Browser, open_phone, CHROMIUM)
    if page.CHROMIUM is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    from ui.editor import EditorService
    from ui.web import PhoneServer

    folder = tmp_path / "editions"
    data = classic()
    data["name"], data["title"] = "markup", "<b>Bold</b> & <img src=x>"
    data["spaces"][1]["name"] = "<i>Old</i> Kent Road"
    data["groups"]["purple"]["name"] = "<script>alert(1)</script>"
    save_edition(data, folder)
    tr = Translator("en")
    server = PhoneServer(["127.0.0.1"], 0)
    server.open_editor(CODE, editor_labels(tr), EditorService(folder, tr))
    server.start()
    try:
        asyncio.run(_markup(page, server, tmp_path))
    finally:
        server.stop()


async def _markup(page: Any, server: Any, tmp_path: Path) -> None:
    async with page.Browser(tmp_path / "profile") as b:
        await page.open_phone(b, f"http://127.0.0.1:{server.port}/e/{CODE}")
        await b.wait_for("document.querySelector('button[data-name=markup]') !== null", timeout=10)
        assert await b.js("document.querySelector('button[data-name=markup] .t').textContent") == \
            "<b>Bold</b> & <img src=x>"
        assert await b.js("document.querySelectorAll('b, img, i').length") == 0
        await b.js("document.querySelector('button[data-name=markup]').click()")
        await b.wait_for(f"document.querySelector('{field('spaces[1].name')}') !== null")
        assert await b.js(f"document.querySelector('{field('spaces[1].name')}').value") == "<i>Old</i> Kent Road"
        assert await b.js("document.getElementById('heading').textContent") == "<b>Bold</b> & <img src=x>"
        assert await b.js("document.querySelector('section.group[data-group=purple] h3').textContent") == \
            "<script>alert(1)</script>"
        assert await b.js("document.querySelectorAll('b, img, i').length + document.scripts.length") == 1
        assert b.problems() == []


def test_every_shipped_ruleset_opens_and_saves_as_it_was_under_a_new_name(tmp_path: Path) -> None:
    """The page on every board shape (biznes, the brands' casino, the short and timed games): opened, renamed
    and saved, the edition holds exactly the ruleset's data but its name: the page writes only what was edited."""
    page = pytest.importorskip("test_phone_page")  # (its Browser, open_phone, CHROMIUM)
    if page.CHROMIUM is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium)")
    from ui.editor import EditorService
    from ui.web import PhoneServer

    folder = tmp_path / "editions"
    tr = Translator("pl")
    server = PhoneServer(["127.0.0.1"], 0)
    server.open_editor(CODE, editor_labels(tr), EditorService(folder, tr))
    server.start()
    try:
        asyncio.run(_every_ruleset(page, server, folder, tmp_path, shots_folder(tmp_path)))
    finally:
        server.stop()


async def _every_ruleset(page: Any, server: Any, folder: Path, tmp_path: Path, shots: Path) -> None:
    async with page.Browser(tmp_path / "profile") as b:
        await page.open_phone(b, f"http://127.0.0.1:{server.port}/e/{CODE}")
        for name in builtin_names():
            await b.wait_for(f"document.querySelector('button[data-name=\"{name}\"]') !== null", timeout=10)
            await b.js(f"document.querySelector('button[data-name=\"{name}\"]').click()")
            await b.wait_for(f"document.querySelector('{field('name')}') !== null")
            source = load_ruleset(name, editions=False).source_data()
            properties = [i for i, s in enumerate(source["spaces"]) if s["kind"] in ("lot", "railroad", "utility")]
            assert await b.js("document.querySelectorAll('section.group .sp').length") == len(properties), name
            assert await b.js("document.documentElement.scrollWidth") <= 375, name
            if name == "biznes":
                await b.screenshot(shots / "pl-biznes-full.png", full=True)
            await _type(b, field("name"), f"my-{name}")
            await b.js("document.getElementById('save').click()")
            await b.wait_for("document.getElementById('note').classList.contains('ok')")
            saved = load_edition(f"my-{name}", folder).source_data()
            assert saved == {**source, "name": f"my-{name}"}, name
            await b.js("document.getElementById('back').click()")
        assert b.problems() == []
