"""a same-cards round's ratings wait for its end

A rated match of a same-cards round still being played is not rated when it ends: its rating
would tell its result to the players of the round's other tables (issue 27, H2). What rating it
takes is kept here and the match rated once the round is over (burraco.store.rating_store).

Revision ID: 0016_pending_ratings
Revises: 0015_name_skeletons
Create Date: 2026-12-05 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_pending_ratings"
down_revision = "0015_name_skeletons"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pending_ratings",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=4), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "match_no"),
    )


def downgrade() -> None:
    op.drop_table("pending_ratings")
