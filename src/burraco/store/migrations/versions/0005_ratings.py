"""ratings

A rating per player and mode, its history (one row per rated match and person) and the matches
already rated (burraco.store.rating_models; issue 16).

Revision ID: 0005_ratings
Revises: 0004_match_result
Create Date: 2026-12-03 07:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_ratings"
down_revision = "0004_match_result"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=4), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("abandoned", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "mode"),
    )
    op.create_index("ix_ratings_mode_mu", "ratings", ["mode", "mu"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=4), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("delta", sa.Float(), nullable=False),
        sa.Column("result", sa.String(length=10), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rating_history_user", "rating_history", ["user_id", "mode", "at"])
    op.create_index("ix_rating_history_mode_at", "rating_history", ["mode", "at"])
    op.create_table(
        "rating_months",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=4), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("delta", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "mode", "month"),
    )
    op.create_index("ix_rating_months_board", "rating_months", ["mode", "month", "mu"])
    op.create_table(
        "rated_matches",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=4), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "match_no"),
    )


def downgrade() -> None:
    op.drop_table("rated_matches")
    op.drop_index("ix_rating_months_board", table_name="rating_months")
    op.drop_table("rating_months")
    op.drop_index("ix_rating_history_mode_at", table_name="rating_history")
    op.drop_index("ix_rating_history_user", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_mode_mu", table_name="ratings")
    op.drop_table("ratings")
