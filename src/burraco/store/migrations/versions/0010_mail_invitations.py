"""invitations by mail

Users get the choice to be told of invitations and challenges by e-mail when no page of the
site is open; the mails sent keep whose doing they were (the inviter), to limit them per
inviter and invitee (burraco.store.account_models; issue 16).

Revision ID: 0010_mail_invitations
Revises: 0009_recurring_events
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_mail_invitations"
down_revision = "0009_recurring_events"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("mail_invitations", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("mail_sent", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sender_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            "fk_mail_sent_sender_id", "users", ["sender_id"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("mail_sent", schema=None) as batch_op:
        batch_op.drop_constraint("fk_mail_sent_sender_id", type_="foreignkey")
        batch_op.drop_column("sender_id")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("mail_invitations")
