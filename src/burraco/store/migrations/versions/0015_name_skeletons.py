"""names that read alike are one name

Each account keeps its name's skeleton (``burraco.store.names.skeleton``: Unicode's look-alikes
inside the letters a name may use), unique, so that a new name reading like a
taken one is taken too (issue 19, M9). Existing accounts get theirs in the order they were
created; a later account whose skeleton an earlier one holds keeps none (it keeps its name, and
no new name may look like either).

Revision ID: 0015_name_skeletons
Revises: 0014_fair_seeds
Create Date: 2026-12-04 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from burraco.store.names import skeleton

revision = "0015_name_skeletons"
down_revision = "0014_fair_seeds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_skeleton", sa.String(length=32), nullable=True))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_skeleton", sa.String),
    )
    connection = op.get_bind()
    held: set[str] = set()
    for user_id, name in connection.execute(
        sa.select(users.c.id, users.c.name).order_by(users.c.id)
    ):
        key = skeleton(name)
        if key in held:
            continue
        held.add(key)
        connection.execute(sa.update(users).where(users.c.id == user_id).values(name_skeleton=key))
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.create_unique_constraint("uq_users_name_skeleton", ["name_skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint("uq_users_name_skeleton", type_="unique")
        batch_op.drop_column("name_skeleton")
