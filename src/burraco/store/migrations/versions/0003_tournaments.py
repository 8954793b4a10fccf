"""online tournaments

The tournament_* tables of online tournaments (burraco.store.tournament_models): tournaments,
their entrants in registration order, their rounds and the tables of each round with results.

Revision ID: 0003_tournaments
Revises: 0002_club
Create Date: 2026-11-29 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_tournaments"
down_revision = "0002_club"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("start", sa.String(length=16), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("size", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("note", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournaments_starts_at"), ["starts_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_tournaments_status"), ["status"], unique=False)

    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("entrant", sa.String(length=24), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("partner_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(length=64), nullable=True),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["partner_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("tournament_id", "entrant"),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("relaxed", sa.Boolean(), nullable=False),
        sa.Column("slots", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "number"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("lines", sa.JSON(), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=True),
        sa.Column("played", sa.JSON(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "round", "number"),
    )
    with op.batch_alter_table("tournament_tables", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_tables_table_id"), ["table_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_tables", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_tables_table_id"))

    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_entrants")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_status"))
        batch_op.drop_index(batch_op.f("ix_tournaments_starts_at"))

    op.drop_table("tournaments")
