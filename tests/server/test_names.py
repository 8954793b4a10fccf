"""Names that could pass for another person's, or for a guest's, are refused (issue 19, M9):
one script per name, the Latin letters of names only, no combining or invisible marks, no
whole-script look-alike of a Latin name, no guest look-alike. Driven in process."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from burraco.server.auth import look_alike_problem
from burraco.store.names import skeleton

from .inprocess import running_app

REFUSED = [
    "Giulіa12345",  # a Cyrillic і among Latin letters
    "ɢiulia12345",  # LATIN LETTER SMALL CAPITAL G, an IPA letter
    "Giul\u0332ia12345",  # a combining low line that composes with nothing
    "Giu\u200blia12345",  # a zero-width space
    "Ospite_12345",  # a guest's name with another separator
    "Оspite-1",  # a Cyrillic О
    "0spite-77",  # a zero for the O
    "Guest.42",
    "Osp1te-1",  # a one for the i
    "Gue5t-1",  # a five for the s
    "Сара",  # all Cyrillic, reads as the Latin "Capa"
    "Giulia١٢٣",  # Arabic-Indic digits
]
ACCEPTED = ["Giulia12345", "Nicolò", "Łukasz_P", "Dmitrij.K", "Дмитрий", "Ospitale", "guesthouse"]


@pytest.mark.parametrize("name", REFUSED)
def test_look_alikes_are_refused(name: str) -> None:
    assert look_alike_problem(name) is not None


@pytest.mark.parametrize("name", ACCEPTED)
def test_ordinary_names_are_accepted(name: str) -> None:
    assert look_alike_problem(name) is None


def test_registration_refuses_look_alikes_with_bad_name(tmp_path: Path) -> None:
    async def scenario() -> list[tuple[str, int, str]]:
        async with running_app(tmp_path, login_attempts_per_minute=6_000_000) as app:
            first = await app.http.post(
                "/api/register", json={"name": "Giulia12345", "password": "a good password"}
            )
            assert first.status_code == 201, first.text
            out = []
            for name in REFUSED:
                answer = await app.http.post(
                    "/api/register", json={"name": name, "password": "a good password"}
                )
                out.append((name, answer.status_code, answer.json()["error"]))
            return out

    for name, status, code in asyncio.run(scenario()):
        # "Giul̲ia…" and a zero-width space are not even name characters: both ways a bad_name.
        assert (status, code) == (400, "bad_name"), name


SAME_READING = [
    ("Giulia12345", "GiuIia12345"),  # a capital i for the l
    ("Giulia12345", "Giulia1234S".replace("S", "5").replace("1", "l", 1)),  # l for the 1
    ("Marco_10", "Marco_1O"),  # a capital O for the zero
    ("Arnold", "Amold"),  # rn for m
    ("Giulia12345", "Gıulia12345"),  # a dotless i
    ("Paolo1234", "Pa0lo1234"),  # a zero for the o
    ("MILANO", "MlLANO"),  # a small l for the capital i
]
DIFFERENT = [("Giulia", "Giulio"), ("Anna", "Ana"), ("Luca", "Luka"), ("Ilaria", "Llaria")]


@pytest.mark.parametrize(("first", "second"), SAME_READING)
def test_names_that_read_alike_have_one_skeleton(first: str, second: str) -> None:
    assert first != second and skeleton(first) == skeleton(second)


@pytest.mark.parametrize(("first", "second"), DIFFERENT)
def test_different_names_keep_different_skeletons(first: str, second: str) -> None:
    assert skeleton(first) != skeleton(second)


def test_a_name_that_reads_like_a_taken_one_is_taken(tmp_path: Path) -> None:
    """Within the letters a name may use, Unicode's look-alikes (I l 1, O 0, rn m) make a
    second name taken: for people and for bot accounts, in the page's language."""

    async def scenario() -> None:
        async with running_app(tmp_path, login_attempts_per_minute=6_000_000) as app:
            for name in ("Giulia12345", "Arnold", "Marco_10"):
                made = await app.http.post(
                    "/api/register", json={"name": name, "password": "a good password"}
                )
                assert made.status_code == 201, made.text
            token = made.json()["token"]
            app.http.cookies.clear()
            for name in ("GiuIia12345", "Amold", "Marco_1O", "marco_10"):
                answer = await app.http.post(
                    "/api/register", json={"name": name, "password": "a good password"}
                )
                assert answer.status_code == 409, (name, answer.text)
                assert answer.json()["error"] == "name_taken"
                assert "reads like a name that is" in answer.json()["message"]
            bot = await app.http.post(
                "/api/account/bots",
                json={"name": "Giu1ia12345"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert bot.status_code == 409, bot.text
            assert bot.json()["error"] == "name_taken"
            fine = await app.http.post(
                "/api/register", json={"name": "Giulio12345", "password": "a good password"}
            )
            assert fine.status_code == 201, fine.text

    asyncio.run(scenario())
