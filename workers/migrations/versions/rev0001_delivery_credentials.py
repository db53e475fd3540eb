"""Create key sessions and agent delivery credentials.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "key_sessions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key_digest", sa.String(length=64), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("workspace", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_key_sessions"),
        sa.UniqueConstraint("key_digest", name="uq_key_sessions_key_digest"),
    )
    op.create_table(
        "agent_delivery_credentials",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("key_session_id", sa.Integer(), nullable=False),
        sa.Column("workspace", sa.String(length=64), nullable=False),
        sa.Column("conversation", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["key_session_id"],
            ["key_sessions.id"],
            name="fk_agent_delivery_credentials_key_session_id_key_sessions",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_agent_delivery_credentials"),
        sa.UniqueConstraint(
            "key_session_id",
            "conversation",
            name="uq_agent_delivery_credentials_key_session_id_conversation",
        ),
    )
    op.create_index(
        "ix_agent_delivery_credentials_account_conversation",
        "agent_delivery_credentials",
        ["account", "conversation"],
    )


def downgrade() -> None:
    op.drop_index(
        "ix_agent_delivery_credentials_account_conversation",
        table_name="agent_delivery_credentials",
    )
    op.drop_table("agent_delivery_credentials")
    op.drop_table("key_sessions")
