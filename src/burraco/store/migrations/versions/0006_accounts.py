"""accounts that last

Users get a verified e-mail address and the choice to receive tournament standings by mail;
single-use tokens for the verification and reset links; the mails sent, to limit them
(burraco.store.account_models; issue 16).

Revision ID: 0006_accounts
Revises: 0005_ratings
Create Date: 2026-12-03 08:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_accounts"
down_revision = "0005_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch_op.add_column(
            sa.Column("mail_standings", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_unique_constraint("uq_users_email", ["email"])
    op.create_table(
        "account_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_account_tokens_user_id", "account_tokens", ["user_id"])
    op.create_table(
        "mail_sent",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_mail_sent_email_at", "mail_sent", ["email", "at"])
    op.create_index("ix_mail_sent_user_at", "mail_sent", ["user_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_mail_sent_user_at", table_name="mail_sent")
    op.drop_index("ix_mail_sent_email_at", table_name="mail_sent")
    op.drop_table("mail_sent")
    op.drop_index("ix_account_tokens_user_id", table_name="account_tokens")
    op.drop_table("account_tokens")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint("uq_users_email", type_="unique")
        batch_op.drop_column("mail_standings")
        batch_op.drop_column("email")
