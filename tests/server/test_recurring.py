"""Recurring online events (issue 16): an organiser's "every day at 21:00, a Danish
tournament" is created by the server a day ahead of each start, once, at 21:00 on the
organiser's clock; bad schedules and strangers' deletions are refused and change nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .inprocess import running_app

PASSWORD = "una password lunga"


def test_a_daily_event_is_created_a_day_ahead_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_app(tmp_path) as app:
            made = await app.http.post("/api/register", json={"name": "Olga", "password": PASSWORD})
            app.http.cookies.clear()
            olga = {"Authorization": f"Bearer {made.json()['token']}"}
            body = {
                "name": "La sera di Olga",
                "at": "21:00",
                "zone": "Europe/Rome",
                "lead_hours": 24,
                "tournament": {"system": "danish", "rounds": 3, "smazzate": 2},
            }
            bad = await app.http.post(
                "/api/tournaments/recurring", json=body | {"zone": "Mars/Base"}, headers=olga
            )
            assert bad.status_code == 422 and "time zone" in bad.text
            bad = await app.http.post(
                "/api/tournaments/recurring", json=body | {"weekdays": [9]}, headers=olga
            )
            assert bad.status_code == 422
            created = await app.http.post("/api/tournaments/recurring", json=body, headers=olga)
            assert created.status_code == 201, created.text
            schedule = created.json()["id"]
            mine = (await app.http.get("/api/tournaments/recurring", headers=olga)).json()
            assert [r["name"] for r in mine] == ["La sera di Olga"]
            manager = app.hub.tournaments
            assert manager is not None
            now = datetime.now(UTC)

            async def events_made() -> list[dict[str, object]]:
                listed = (await app.http.get("/api/tournaments")).json()
                return [t for t in listed if t["name"] == "La sera di Olga"]

            async def made_by_the_scheduler() -> bool:
                return bool(await events_made())

            # The server's own scheduler makes the next event (poked by the new schedule) ...
            await app.until(made_by_the_scheduler, timeout=10)
            # ... once: asking again makes nothing more.
            assert await manager.recurring_tick(now + timedelta(minutes=1)) == []
            events = await events_made()
            assert len(events) == 1
            starts = sorted(datetime.fromisoformat(str(e["starts_at"])) for e in events)
            for start in starts:
                # 21:00 in Rome (19:00 or 20:00 UTC), within the next day.
                assert start.astimezone(UTC).hour in (19, 20) and start.minute == 0
                assert now < start <= now + timedelta(hours=24, minutes=1)
            # The next day brings the next one.
            later = await manager.recurring_tick(now + timedelta(days=1))
            assert len(later) == 1
            # Strangers cannot stop it; the organiser can, and nothing more is made.
            made = await app.http.post("/api/register", json={"name": "Pino", "password": PASSWORD})
            app.http.cookies.clear()
            pino = {"Authorization": f"Bearer {made.json()['token']}"}
            stranger = await app.http.delete(f"/api/tournaments/recurring/{schedule}", headers=pino)
            assert stranger.status_code == 404
            stopped = await app.http.delete(f"/api/tournaments/recurring/{schedule}", headers=olga)
            assert stopped.status_code == 204
            assert await manager.recurring_tick(now + timedelta(days=3)) == []

    asyncio.run(scenario())
