"""The Italian and English catalogs are complete: same keys, same placeholders, no empty text,
and every key the client's code or page uses exists."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "burraco" / "web"
KEY = re.compile(r"^[a-z][a-z0-9_-]*(\.[a-zA-Z0-9_-]+)+$")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogs() -> dict[str, dict[str, str]]:
    return {
        lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for lang in ("it", "en")
    }


# Italian words that no English text of the pages has: a net under the catalog comparison below
# for a string the page would write without the catalogs.
ITALIAN_WORDS = re.compile(
    r"\b(il|gli|della|delle|dei|del|con|non|che|sei|tuo|tua|tuoi|tavolo|tavoli|giocatore|"
    r"giocatori|partita|partite|amici|cerca|segnalazione|segnalazioni|regole|attesa|linea|"
    r"nessun|nessuna|fatto|chiudi|invita|segui)\b",
    re.IGNORECASE,
)


def italian_left(text: str, keys: Sequence[str]) -> list[str]:
    """What of the Italian catalog's texts under ``keys`` (exact keys, or prefixes ending with a
    dot) shows in ``text``, an English page's: the pieces of each text between its placeholders
    that differ from the English one, and Italian words. Empty when the page is all English."""
    it, en = catalogs()["it"], catalogs()["en"]
    found = [m.group(0) for m in ITALIAN_WORDS.finditer(text)]
    for key, italian in it.items():
        if not any(key == k or (k.endswith(".") and key.startswith(k)) for k in keys):
            continue
        for between in PLACEHOLDER.split(italian)[::2]:  # split keeps the names: skip them
            piece = between.strip(" .,:;·()…!?-–\n")
            if len(piece) >= 4 and piece not in en[key] and piece in text:
                found.append(f"{key}: {piece}")
    return found


def sources() -> str:
    files = [*sorted((WEB / "js").glob("*.js")), WEB / "index.html"]
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


def test_same_keys_and_placeholders() -> None:
    it, en = catalogs()["it"], catalogs()["en"]
    assert sorted(it) == sorted(en), set(it) ^ set(en)
    for key in it:
        assert it[key].strip() and en[key].strip(), key
        assert set(PLACEHOLDER.findall(it[key])) == set(PLACEHOLDER.findall(en[key])), key


def test_every_key_used_exists() -> None:
    keys = set(catalogs()["it"])
    code = sources()
    # Literal keys: t("..."), has("..."), data-i18n*="...", and dotted string literals passed on
    # to t() (button labels, sheet rows).
    literal = set(re.findall(r"\b(?:t|has)\(\s*\"([^\"]+)\"", code))
    literal |= set(re.findall(r"data-i18n(?:-\w+)?=\"([^\"]+)\"", code))
    literal |= {s for s in re.findall(r"\"([^\"\s]+)\"", code) if KEY.match(s) and "/" not in s}
    literal -= {"text.html"}
    missing = sorted(k for k in literal if k not in keys and not k.startswith("burraco:"))
    assert not missing, missing
    # Keys built from a prefix, t(`prefix.${...}`): the prefix must name some keys ...
    prefixes = set(re.findall(r"\b(?:t|has)\(`([a-z_.]+)\$\{", code))
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in keys), prefix
    # ... and the values the server sends for them must all be there.
    expected = {
        "rule.": [
            "R1",
            "R5",
            "R13",
            "R14",
            "R17",
            "R20",
            "R21",
            "R22",
            "R23",
            "R24",
            "R25",
            "R26",
            "R27",
            "R29",
            "R30",
            "R31",
            "R35",
            "R37",
            "R38",
            "R48",
            "R53",
            "R54",
            "R55",
            "R56",
            "R57",
            "R58",
            "3.7",
        ],
        "suit.": ["C", "D", "H", "S"],
        "rank.": ["A", "J", "Q", "K"],
        "burraco.": ["clean", "dirty", "semiclean", "nobile", "reale"],
        "log.ended.": ["closing", "stock", "stall"],
        "status.table.": ["open", "playing", "finished"],
        "conn.": ["connecting", "open", "reconnecting", "unauthenticated"],
        "side.": ["chat", "log", "scores", "help"],
        "auth.": ["login", "register"],
        "replay.": ["first", "back", "play", "forward", "last"],
        "bot.": ["random", "greedy", "heuristic", "search"],
        "preset.": ["italian", "classic", "reale", "italian-semipulito", "internazionale"],
        "err.": [
            "bad_json",
            "bad_message",
            "unknown_type",
            "too_large",
            "rate_limited",
            "no_such_table",
            "not_joined",
            "not_seated",
            "not_your_seat",
            "not_playing",
            "bad_action",
            "illegal_action",
            "stale",
            "chat_invalid",
            "server_error",
            "name_taken",
            "bad_login",
            "bad_name",
            "bad_password",
            "seat_taken",
            "not_open",
            "already_seated",
        ],
    }
    for prefix, names in expected.items():
        for name in names:
            assert prefix + name in keys, prefix + name
    for kind in expected["burraco."]:
        assert f"burraco.{kind}.count" in keys and f"burraco.{kind}.count.one" in keys


def test_protocol_errors_and_rules_are_explained() -> None:
    """Every error code and rule id the server can send has words in both languages."""
    root = Path(__file__).resolve().parents[2] / "src" / "burraco"
    protocol = (root / "server" / "protocol.py").read_text(encoding="utf-8")
    codes = set(re.findall(r'= "([a-z_]+)"\n', protocol))
    engine = "".join(
        (root / "engine" / name).read_text(encoding="utf-8") for name in ("state.py", "melds.py")
    )
    rules = set(re.findall(r'"(R\d+|3\.\d)"', engine))
    for lang, catalog in catalogs().items():
        assert {f"err.{c}" for c in codes} <= set(catalog), (lang, codes - set(catalog))
        missing = {r for r in rules if f"rule.{r}" not in catalog}
        assert not missing, (lang, missing)


def test_every_refusal_has_words() -> None:
    """Every code of the service's vocabulary, and every precise cause (``detail``) the server
    names, can be said in both languages: a page never falls back on the server's English
    sentence (or on a generic line for a code it could word)."""
    root = Path(__file__).resolve().parents[2] / "src" / "burraco"
    codes = set(re.findall(r'^    [A-Z_]+ = "([a-z_]+)"$', (root / "errors.py").read_text(), re.M))
    assert "no_such_player" in codes and "conflict" in codes
    server = "\n".join(p.read_text(encoding="utf-8") for p in sorted(root.glob("server/**/*.py")))
    causes = set(re.findall(r'\bdetail="([a-z_]+)"', server))
    for pair in re.findall(r'\bdetail="([a-z_]+)" if .+ else "([a-z_]+)"', server):
        causes |= set(pair)  # detail="needs_admin" if admin else "needs_moderator"
    assert {"blocked", "muted_until", "needs_admin", "needs_moderator"} <= causes
    for lang, catalog in catalogs().items():
        unsaid = {
            c
            for c in codes
            if not any(f"{area}err.{c}" in catalog for area in ("", "tour.", "club."))
        }
        assert not unsaid, (lang, sorted(unsaid))
        assert not {c for c in causes if f"err.{c}" not in catalog}, lang
        # A cause shares its key with a code only when it has no placeholder (a code alone
        # would leave its {name} unfilled).
        for c in causes & codes:
            assert not PLACEHOLDER.search(catalog[f"err.{c}"]), c
