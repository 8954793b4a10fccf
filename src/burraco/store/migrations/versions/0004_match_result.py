"""match result: MP and VP

A finished match's match points and victory points (``matches.mp``, ``matches.vp``, null when
they do not apply): after a timeout or a forfeit they are T14's technical score, which the raw
totals of the completed smazzate do not show (issue 15, defect 6: "0-0" in the lobby).

Revision ID: 0004_match_result
Revises: 0003_tournaments
Create Date: 2026-12-02 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_match_result"
down_revision = "0003_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("mp", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("vp", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("vp")
        batch_op.drop_column("mp")
