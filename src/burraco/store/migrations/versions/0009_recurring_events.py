"""recurring events

Organisers' schedules of online tournaments created ahead of their starts
(burraco.store.tournament_models.RecurringEvent; issue 16).

Revision ID: 0009_recurring_events
Revises: 0008_moderation
Create Date: 2026-12-03 09:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_recurring_events"
down_revision = "0008_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "recurring_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("weekdays", sa.JSON(), nullable=False),
        sa.Column("at", sa.String(length=5), nullable=False),
        sa.Column("zone", sa.String(length=64), nullable=False),
        sa.Column("lead_minutes", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_start", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_recurring_events_created_by", "recurring_events", ["created_by"])


def downgrade() -> None:
    op.drop_index("ix_recurring_events_created_by", table_name="recurring_events")
    op.drop_table("recurring_events")
