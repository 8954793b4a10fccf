"""players' seeds of each deal

Each dealt smazzata keeps how the players' seeds went into its deck (the commitments sent
before any seed was revealed, the seeds used, whether they decided the deck), so that a table
resumed after a restart writes them in its record's [meta] fairness (docs/protocol.md, "Fair
deals"; issue 18).

Revision ID: 0014_fair_seeds
Revises: 0013_reviews
Create Date: 2026-12-04 02:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_fair_seeds"
down_revision = "0013_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("smazzate", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fairness", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("smazzate", schema=None) as batch_op:
        batch_op.drop_column("fairness")
