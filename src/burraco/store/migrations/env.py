"""Alembic environment: migrations always run on a connection the caller provides."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from alembic import context
from alembic.runtime.migration import MigrationContext, MigrationInfo

from burraco.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through burraco.store.migrate.upgrade(connection)")
applied = context.config.attributes.get("applied")


def _note(
    ctx: MigrationContext, step: MigrationInfo, heads: Collection[Any], run_args: Mapping[str, Any]
) -> None:
    # Tell burraco.store.migrate.upgrade which migrations ran (it reports them).
    if applied is not None and step.is_upgrade:
        from burraco.store.migrate import Applied

        revision = step.up_revision  # a Script, which has the doc line
        doc = str(getattr(revision, "doc", None) or "").strip()
        applied.append(Applied(step.up_revision_id or "?", doc))


context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    on_version_apply=_note,
)
with context.begin_transaction():
    context.run_migrations()
