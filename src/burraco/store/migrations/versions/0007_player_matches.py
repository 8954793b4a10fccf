"""player matches

Each finished match as each of its players played it: result, smazzate, MP, burrachi,
pozzetti, closings, the players by seat (burraco.store.rating_models.PlayerMatch; issue 16).

Revision ID: 0007_player_matches
Revises: 0006_accounts
Create Date: 2026-12-03 08:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_player_matches"
down_revision = "0006_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_matches",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mode", sa.String(length=4), nullable=False),
        sa.Column("rules", sa.String(length=40), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("ended", sa.String(length=16), nullable=False),
        sa.Column("smazzate", sa.Integer(), nullable=False),
        sa.Column("mp", sa.Integer(), nullable=False),
        sa.Column("burrachi_clean", sa.Integer(), nullable=False),
        sa.Column("burrachi_dirty", sa.Integer(), nullable=False),
        sa.Column("pozzetti", sa.Integer(), nullable=False),
        sa.Column("closings", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("opponent_ids", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "table_id", "match_no"),
    )
    op.create_index("ix_player_matches_user_at", "player_matches", ["user_id", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_player_matches_user_at", table_name="player_matches")
    op.drop_table("player_matches")
