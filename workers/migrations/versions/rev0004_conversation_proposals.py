"""Keep what became of each proposal a conversation's replies made (R50).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "agent_conversation_proposals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("workspace", sa.String(length=64), nullable=False),
        sa.Column("conversation", sa.String(length=128), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("proposal_id", sa.String(length=64), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_agent_conversation_proposals"),
        sa.UniqueConstraint(
            "account",
            "workspace",
            "conversation",
            "proposal_id",
            name="uq_agent_conversation_proposals_proposal",
        ),
    )


def downgrade() -> None:
    op.drop_table("agent_conversation_proposals")
