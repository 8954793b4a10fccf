"""cluster

The processes of a cluster, the leases by which each table is run by one of them, with
its fencing token, and the roles one process holds for all (tournaments);
burraco.store.lease_store, issue 17.

Revision ID: 0011_cluster
Revises: 0010_mail_invitations
Create Date: 2026-12-03 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_cluster"
down_revision = "0010_mail_invitations"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(length=80), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=200), nullable=True),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("heartbeat_at", sa.Float(), nullable=False),
        sa.Column("draining", sa.Boolean(), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("node", sa.String(length=80), nullable=True),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_table_leases_node", "table_leases", ["node"])
    op.create_table(
        "cluster_roles",
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("node", sa.String(length=80), nullable=True),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("role"),
    )


def downgrade() -> None:
    op.drop_table("cluster_roles")
    op.drop_index("ix_table_leases_node", table_name="table_leases")
    op.drop_table("table_leases")
    op.drop_table("nodes")
