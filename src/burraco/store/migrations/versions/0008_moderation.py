"""moderation

Roles and sanctions on the users; mutes and blocks between players; reports; the audit log
(burraco.store.moderation_models; issue 16).

Revision ID: 0008_moderation
Revises: 0007_player_matches
Create Date: 2026-12-03 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_moderation"
down_revision = "0007_player_matches"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("role", sa.String(length=16), nullable=False, server_default="player")
        )
        batch_op.add_column(sa.Column("chat_muted_until", sa.DateTime(timezone=True)))
        batch_op.add_column(sa.Column("suspended_until", sa.DateTime(timezone=True)))
        batch_op.add_column(
            sa.Column("banned", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "user_relations",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("other_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["other_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "other_id", "kind"),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("target_name", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(length=500), nullable=True),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("handled_by", sa.Integer(), nullable=True),
        sa.Column("resolution", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["target_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["handled_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_reports_status", "reports", ["status", "created_at"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("moderator_id", sa.Integer(), nullable=True),
        sa.Column("moderator_name", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=24), nullable=False),
        sa.Column("target", sa.String(length=64), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["moderator_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])


def downgrade() -> None:
    op.drop_index("ix_audit_log_at", table_name="audit_log")
    op.drop_table("audit_log")
    op.drop_index("ix_reports_status", table_name="reports")
    op.drop_table("reports")
    op.drop_table("user_relations")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("banned")
        batch_op.drop_column("suspended_until")
        batch_op.drop_column("chat_muted_until")
        batch_op.drop_column("role")
