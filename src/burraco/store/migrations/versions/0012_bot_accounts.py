"""bot accounts

A user may be a bot account, owned by the person who registered it (``bot_owner_id``): it
plays with an API token, never with a password (burraco.store.bot_store; issue 18).

Revision ID: 0012_bot_accounts
Revises: 0011_cluster
Create Date: 2026-12-04 02:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_bot_accounts"
down_revision = "0011_cluster"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_owner_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            "fk_users_bot_owner_id", "users", ["bot_owner_id"], ["id"], ondelete="CASCADE"
        )
        batch_op.create_index("ix_users_bot_owner_id", ["bot_owner_id"])


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_index("ix_users_bot_owner_id")
        batch_op.drop_constraint("fk_users_bot_owner_id", type_="foreignkey")
        batch_op.drop_column("bot_owner_id")
