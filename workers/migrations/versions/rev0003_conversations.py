"""Keep conversations: user messages, final replies and the tools each turn called (R34).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "agent_conversation_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("workspace", sa.String(length=64), nullable=False),
        sa.Column("conversation", sa.String(length=128), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("tool_calls", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_agent_conversation_messages"),
    )
    op.create_index(
        "ix_agent_conversation_messages_account_workspace_conversation",
        "agent_conversation_messages",
        ["account", "workspace", "conversation"],
    )


def downgrade() -> None:
    op.drop_index(
        "ix_agent_conversation_messages_account_workspace_conversation",
        table_name="agent_conversation_messages",
    )
    op.drop_table("agent_conversation_messages")
